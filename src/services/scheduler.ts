// Work that falls due on the platform clock: settlement, subscription billing and
// retries, token and idempotency clean-up. `payctl clock advance` and the timer in
// `payctl serve` both call runDueWork. Every job is idempotent (compare-and-set on
// the rows it moves), so two processes running it at once never do a thing twice.
import type { Platform } from './platform.js';
import { purgeIdempotencyKeys } from './idempotency.js';
import { tokenRepo } from '../store/repositories/tokens.js';
import { jobRunsRepo } from '../store/repositories/clock.js';
import { runSettlement } from './transactions/settlement.js';
import { billDueSubscriptions } from './billing.js';

export interface Job {
  name: string;
  /** Do everything due up to `until`; `from` is where the last run stopped (or undefined). Returns a count of work done. */
  run(p: Platform, until: Date, from: Date | undefined, progress?: Progress): Promise<number>;
}

export type Progress = (done: number, total: number, label: string) => void;

// Each capability adds its job here, in the order they should run.
const jobs: Job[] = [
  { name: 'subscription-billing', run: (p, until, _from, progress) => billDueSubscriptions(p, until, progress) },
  { name: 'settlement', run: (p, until, from, progress) => runSettlement(p, until, from, progress) },
  { name: 'idempotency-purge', run: (p, until) => purgeIdempotencyKeys(p, until) },
  {
    name: 'token-purge',
    run: async (p, until) => {
      // Expired minted tokens are useless; keep a day for error messages.
      const before = new Date(until.getTime() - 86_400_000).toISOString();
      return (await p.db.write((tx) => tokenRepo.deleteExpired(tx, before))).changes;
    },
  },
];

export async function runDueWork(p: Platform, progress?: Progress): Promise<Record<string, number>> {
  await p.clock.refresh();
  const until = p.clock.now();
  const done: Record<string, number> = {};
  for (const job of jobs) {
    const ranUntil = await jobRunsRepo.ranUntil(p.db, job.name);
    const from = ranUntil ? new Date(ranUntil) : undefined;
    done[job.name] = await job.run(p, until, from, progress);
    await p.db.write((tx) => jobRunsRepo.record(tx, job.name, until.toISOString()));
  }
  return done;
}
