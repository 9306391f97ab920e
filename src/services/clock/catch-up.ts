// A group's catch-up: the due work a move of its clock makes (billing missed cycles and
// retries, settlement, auth expiry, past due, webhook deliveries) run by this process in
// chunks (chunks.ts), one run per group at a time. A move that finds its group's run
// going asks it for one more pass (the new time's work) instead of starting a second.
// What is left to do is read from the database, never kept here: after a kill -9 the
// server's tick (runDueWork over every group) or the group's next move goes on from there,
// and `catchUpState` reports the same numbers either way.
import { counted } from '../telemetry.js';
import { forGroup, type Platform } from '../platform.js';
import type { Store } from '../../store/interfaces/db.js';
import { runDueWork } from './scheduler.js';
import type { Progress } from './chunks.js';
import { estimateDueCharges } from '../recurring/billing.js';
import { countToSettle } from '../transactions/settlement.js';

/** Transactions to settle are counted up to this many (the count is a progress hint, not a sum). */
export const SETTLE_COUNT_CAP = 1000;

export interface CatchUpState {
  /** running: this server is doing the group's due work now; pending: work is due and the server's tick will do it; caught_up: nothing is due. */
  status: 'running' | 'pending' | 'caught_up';
  /** The job running now (running only). */
  job: string | null;
  /** Active subscriptions with a charge due at the group's time. */
  subscriptions_due: number;
  /** Charge attempts still due (estimated: a declined charge's retries come on top). */
  charges_due: number;
  /** Transactions waiting for a settlement cutoff that has passed (counted up to 1,000). */
  transactions_to_settle: number;
}

interface Run {
  promise: Promise<void>;
  job: string | null;
  /** Counts of work done by the run so far, per job. */
  work: Record<string, number>;
  /** A move came while it ran: one more pass after this one. */
  again: boolean;
  abandoned: boolean;
}

const runs = new WeakMap<Store, Map<string, Run>>();
const runsOf = (db: Store) => {
  let m = runs.get(db);
  if (!m) runs.set(db, (m = new Map()));
  return m;
};

/** Start (or extend) the catch-up of `groupId`; resolves with the run, whose promise ends once the group is caught up. */
export function startCatchUp(p: Platform, groupId: string, progress?: Progress): { promise: Promise<void>; work: Record<string, number> } {
  const mine = runsOf(p.db);
  const going = mine.get(groupId);
  if (going) {
    going.again = true;
    return going;
  }
  const run: Run = { promise: Promise.resolve(), job: null, work: {}, again: false, abandoned: false };
  run.promise = counted('catch_up', async () => {
    try {
      for (;;) {
        run.again = false;
        await runDueWork(p, { groupId, progress, done: run.work, onJob: (name) => (run.job = name) });
        // Checked and left in one step: a move that joins later starts a run of its own.
        if (!run.again || run.abandoned) break;
      }
    } finally {
      if (mine.get(groupId) === run) mine.delete(groupId);
    }
  });
  // Nobody may be waiting any more (the move answered 202): a failure is reported here.
  run.promise.catch((err: unknown) => {
    if (!run.abandoned) process.stderr.write(`catch-up of group ${groupId} stopped: ${String(err)}; the server's tick goes on with it\n`);
  });
  mine.set(groupId, run);
  return run;
}

/** Whether this process is catching `groupId` up now (nothing read: for a page that shows the clock on every render). */
export const catchUpRunning = (db: Store, groupId: string): boolean => runsOf(db).has(groupId);

/** Stop waiting for this database's runs (the server closes it): what they left is due work in the database. */
export function abandonCatchUps(db: Store): Array<Promise<void>> {
  const mine = runsOf(db);
  for (const run of mine.values()) run.abandoned = true;
  return [...mine.values()].map((r) => r.promise.catch(() => undefined));
}

/**
 * How far the group's due work is: read from the database, and whether this process is
 * working on it (`finished`: the caller's own run has ended, so it reports what is left
 * as pending rather than another move's run as its own).
 */
export async function catchUpState(p: Platform, groupId: string, finished = false): Promise<CatchUpState> {
  const g = await forGroup(p, groupId);
  await g.clock.refresh();
  const until = g.clock.now();
  const scope = { groupId };
  const [due, toSettle] = await Promise.all([estimateDueCharges(g, until, scope), countToSettle(g, until, scope, SETTLE_COUNT_CAP)]);
  const run = finished ? undefined : runsOf(p.db).get(groupId);
  const left = due.subscriptions > 0 || toSettle > 0;
  return {
    status: run ? 'running' : left ? 'pending' : 'caught_up',
    job: run?.job ?? null,
    subscriptions_due: due.subscriptions,
    charges_due: due.charges,
    transactions_to_settle: toSettle,
  };
}
