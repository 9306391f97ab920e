// Work that falls due on the clock: settlement, subscription billing and retries,
// auth expiry, invoices going past due, token and idempotency clean-up. `payctl clock
// advance` and the timer in `payctl serve` both call runDueWork. Every job is
// idempotent (compare-and-set on the rows it moves), so two processes running it at
// once never do a thing twice.
//
// Each group has its own clock, so group work runs per group at that group's time:
// for one group (`clock advance --group`, the sandbox clock route) or for every group,
// one pass per distinct clock offset (groups that share an offset share a pass, so a
// database of groups on the plain platform clock costs one pass, as before). Frozen
// groups have no pass (their work runs when they are moved); accelerated ones one each
// (docs/clock.md "Clock modes"). Each group is its own failure domain (failure-domains.ts):
// a pass that throws runs its groups again one by one, and a group whose work throws waits
// out a backoff while the others go on.
import { forGroup, platformClock, withClockOffset, withGroupClock, type Platform } from '../platform.js';
import { purgeIdempotencyKeys } from '../idempotency.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import { runSettlement } from '../transactions/settlement.js';
import { billDueSubscriptions } from '../recurring/billing.js';
import { notifyPastDueInvoices } from '../catalog/invoice-past-due.js';
import { deliverGroupDue, deliverRealTimeDue } from '../webhooks/delivery.js';
import { resumeForks } from '../sandboxes/fork-run.js';
import { dropStaleImports } from '../sandboxes/import.js';
import { resumeDrops } from '../sandboxes/drop-run.js';
import { resumePlanUpdates } from '../recurring/plan-updates.js';
import { expireSandboxes } from '../sandboxes/leases.js';
import type { Progress } from './chunks.js';
import { failureDomains, isOutage } from './failure-domains.js';

/** Work of the groups in `scope`, due by `until` (their time); `p.clock` reads their time. Returns a count of work done. */
export interface GroupJob {
  name: string;
  run(p: Platform, scope: GroupScope, until: Date, progress?: Progress): Promise<number>;
}

/** Work that belongs to no group, due by `until` on the platform clock. */
export interface PlatformJob {
  name: string;
  run(p: Platform, until: Date): Promise<number>;
}

// Each capability adds its job here, in the order they should run.
const groupJobs: GroupJob[] = [
  { name: 'subscription-billing', run: (p, scope, until, progress) => billDueSubscriptions(p, until, progress, scope) },
  { name: 'settlement', run: (p, scope, until, progress) => runSettlement(p, until, scope, progress) },
  { name: 'invoice-past-due', run: (p, scope, until, progress) => notifyPastDueInvoices(p, until, scope, progress) },
  { name: 'idempotency-purge', run: (p, scope, until) => purgeIdempotencyKeys(p, until, scope) },
  // Last: the events the jobs above appended are delivered in the same pass.
  { name: 'webhook-deliveries', run: (p, scope, until) => deliverGroupDue(p, scope, until) },
];

const platformJobs: PlatformJob[] = [
  {
    name: 'token-purge',
    run: async (p, until) => {
      // Expired minted tokens are useless; keep a day for error messages.
      const before = new Date(until.getTime() - 86_400_000).toISOString();
      return (await p.db.write((tx) => tx.repos.tokens.deleteExpired(tx, before))).changes;
    },
  },
  // Forks a killed server left part-way (their progress is in the database).
  { name: 'sandbox-forks', run: (p) => resumeForks(p) },
  // Sandbox drops a killed server left part-way: finished.
  { name: 'sandbox-drops', run: (p) => resumeDrops(p) },
  // Imports a killed server left part-way (the file was its own): what they wrote is dropped.
  { name: 'sandbox-imports', run: (p) => dropStaleImports(p) },
  // Plan updates a killed server left part-way over the plan's subscriptions.
  { name: 'plan-updates', run: (p) => resumePlanUpdates(p) },
  // Sandboxes past their time to live (real time without a request).
  { name: 'sandbox-ttl', run: (p) => expireSandboxes(p) },
  // Keys used without an API key (public routes) belong to no group.
  { name: 'idempotency-purge', run: (p, until) => purgeIdempotencyKeys(p, until, { groupId: 'public' }) },
];

export interface DueWorkOptions {
  /** Only this group's work, at its time (nothing of any other group, nothing platform-wide). */
  groupId?: string;
  progress?: Progress;
  /** Told the name of each group job as it starts (a catch-up's progress report). */
  onJob?: (name: string) => void;
  /** Counts of work done are added here as each job ends (default: a new record). */
  done?: Record<string, number>;
}

export async function runDueWork(p: Platform, opts: DueWorkOptions | Progress = {}): Promise<Record<string, number>> {
  const { groupId, progress, onJob, done = {} } = typeof opts === 'function' ? { groupId: undefined, progress: opts } : opts;
  const add = (name: string, n: number) => (done[name] = (done[name] ?? 0) + n);
  if (groupId !== undefined) {
    const g = await forGroup(p, groupId);
    await g.clock.refresh();
    const until = g.clock.now();
    for (const job of groupJobs) {
      onJob?.(job.name);
      add(job.name, await job.run(g, { groupId }, until, progress));
    }
    return done;
  }
  const base = platformClock(p);
  await base.refresh();
  const now = base.now();
  const domains = failureDomains(p.db);
  for (const { offset_ms: offsetMs } of await p.db.repos.groupClocks.distinctOffsets(p.db)) {
    const shifted = withClockOffset(p, offsetMs);
    const until = shifted.clock.now();
    if (!domains.hasFailing(offsetMs)) {
      try {
        for (const job of groupJobs) add(job.name, await job.run(shifted, { offsetMs }, until, progress));
        continue;
      } catch (err) {
        if (isOutage(err)) throw err;
        // Some group's rows broke the shared pass: find it by running them apart.
      }
    }
    await runGroupsApart(shifted, offsetMs, until, add, progress);
  }
  // An accelerated clock moves by itself: its group's work, at its own time (deliveries below).
  // Each is a failure domain of its own, as a group of a shared pass is (offset NaN: it shares no pass).
  for (const { id, ...clock } of await p.db.repos.groupClocks.accelerated(p.db)) {
    if (domains.waiting(id)) continue;
    const g = withGroupClock(p, id, clock);
    const until = g.clock.now();
    try {
      for (const job of groupJobs) if (job.name !== 'webhook-deliveries') add(job.name, await job.run(g, { groupId: id }, until, progress));
      domains.succeeded(id);
    } catch (err) {
      if (isOutage(err)) throw err;
      domains.failed(id, Number.NaN, err);
    }
  }
  // A frozen clock stands still: nothing of its group falls due until it is moved (a move
  // runs the group's work). The deliveries of frozen and accelerated groups keep real time.
  add('webhook-deliveries', await deliverRealTimeDue(p));
  for (const job of platformJobs) add(job.name, await job.run(p, now));
  return done;
}

/**
 * The pass of one offset, group by group: a group whose work throws is kept out (and
 * backed off); the others' work is done. Work the failed shared pass did is not done
 * twice (every job moves its rows with compare-and-set).
 */
async function runGroupsApart(shifted: Platform, offsetMs: number, until: Date, add: (name: string, n: number) => void, progress?: Progress): Promise<void> {
  const domains = failureDomains(shifted.db);
  const groups = await shifted.db.repos.groupClocks.groupsAtOffset(shifted.db, offsetMs);
  domains.prune(offsetMs, new Set(groups));
  for (const groupId of groups) {
    if (domains.waiting(groupId)) continue;
    try {
      for (const job of groupJobs) add(job.name, await job.run(shifted, { groupId }, until, progress));
      domains.succeeded(groupId);
    } catch (err) {
      if (isOutage(err)) throw err;
      domains.failed(groupId, offsetMs, err);
    }
  }
}
