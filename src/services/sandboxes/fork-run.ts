// A fork of a sandbox runs in chunks (chunks.ts): each a write of its own that stops
// taking rows after CHUNK_BUDGET_MS and commits, paced so other groups' writes go in
// between. One run per fork in this process; where a fork is lives in the database
// (fork_jobs), so after a kill -9 the server's tick (resumeForks) goes on from there.
// The last step names the new group and issues its keys: only then is it a sandbox.
import { counted } from '../telemetry.js';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { withGroupClock, type Platform } from '../platform.js';
import { runningClock, sandboxClockAnswer, type ClockMode } from '../../domain/clock-modes.js';
import type { Store, Tx } from '../../store/interfaces/db.js';
import type { FinishedFork, ForkProgress } from '../../store/interfaces/platform.js';
import { CHUNK_WRITE, chunkDeadline, Pacer, pastDeadline } from '../clock/chunks.js';
import { invoiceSlug, SLUG_BYTES } from '../../domain/catalog.js';
import { newId } from '../../lib/ids.js';
import type { Progress } from '../clock/chunks.js';

/** What finishing a fork gives its caller (the one who receives the keys). */
export interface ForkDone extends FinishedFork {
  /** Run in the transaction that makes the group whole (names it, issues its keys). */
  extra: unknown;
}

export type Finish = (tx: Tx, forkId: string, done: FinishedFork) => Promise<unknown>;

/** A fork made whole, as the fork's answer shows it (its keys, issued at the start, aside). */
export interface ForkedGroup {
  group_id: string;
  name: string;
  status: 'active';
  processor_id: string;
  linked_account_id: string;
  clock: string;
  clock_mode: ClockMode;
  clock_rate?: number;
  created_at: string;
  forked_from: string;
  id_map: Record<string, string>;
  rows: Record<string, number>;
}

const fresh = { id: newId, secret: () => invoiceSlug(randomBytes(SLUG_BYTES)) };

const runs = new WeakMap<Store, Map<string, Promise<ForkDone | undefined>>>();
const runsOf = (db: Store) => {
  let m = runs.get(db);
  if (!m) runs.set(db, (m = new Map()));
  return m;
};

/**
 * Run fork `forkId` to its end. `finish` (one write, with the id map) makes the group
 * usable; the promise gives what it returned, or undefined if another run finished it.
 * A run already going in this process is joined.
 */
export function runFork(p: Platform, forkId: string, finish: Finish, progress?: Progress): Promise<ForkDone | undefined> {
  const mine = runsOf(p.db);
  const going = mine.get(forkId);
  if (going) return going;
  const report = progress && reporter(p, forkId, progress);
  const run = counted('fork', async () => {
    const pacer = new Pacer(p.db);
    let done: ForkDone | undefined;
    for (;;) {
      pacer.start();
      const deadline = chunkDeadline();
      const step = await p.db.write((tx) => tx.repos.groupRows.forkChunk(tx, forkId, fresh, () => pastDeadline(deadline)), CHUNK_WRITE);
      if (step && report) await report(step.phase);
      if (!step || step.phase === 'over') return done;
      if (step.phase === 'copied') {
        done = await p.db.write(async (tx) => {
          const d = await tx.repos.groupRows.finishFork(tx, forkId);
          return d && { ...d, extra: await finish(tx, forkId, d) };
        });
      }
      await pacer.rest();
    }
  }).finally(() => mine.delete(forkId));
  mine.set(forkId, run);
  return run;
}

/** The last step of a fork, in the write that makes its group whole: its name, creation time and status active (its keys were issued at the start). */
export function finishFork(p: Platform): Finish {
  return async (tx, newGroupId, done): Promise<ForkedGroup> => {
    const clock = (await tx.repos.groupClocks.get(tx, newGroupId)) ?? runningClock(0);
    const now = withGroupClock(p, newGroupId, clock).clock.nowIso();
    await tx.repos.sandboxes.nameFork(tx, newGroupId, done.name, now);
    const [processor] = await tx.repos.processors.listByGroup(tx, newGroupId);
    const [account] = await tx.repos.linkedAccounts.listByGroup(tx, newGroupId);
    return {
      group_id: newGroupId,
      name: done.name,
      status: 'active',
      processor_id: processor?.id ?? '',
      linked_account_id: account?.id ?? '',
      clock: now,
      ...sandboxClockAnswer(clock),
      created_at: now,
      forked_from: done.source_id,
      id_map: done.idMap,
      rows: done.copied,
    };
  };
}

/** Go on with every fork not over (the server's tick after a kill -9; the keys its request answered with then work). Returns forks finished. */
export async function resumeForks(p: Platform): Promise<number> {
  let n = 0;
  for (const forkId of await p.db.repos.groupRows.pendingForks(p.db)) {
    if (await runFork(p, forkId, finishFork(p))) n++;
  }
  return n;
}

/** How often a progress bar is told of a fork (its size is counted each time). */
const REPORT_EVERY_MS = 250;

/** Tells `progress` how far the fork is (ids mapped, then rows copied, of the source's rows), at most every REPORT_EVERY_MS. */
function reporter(p: Platform, forkId: string, progress: Progress): (phase: string) => Promise<void> {
  let last = 0;
  let lastPhase = '';
  return async (phase) => {
    // Once the rows are copied the bar is full: forgetting the map is not shown.
    if (phase === 'clean' || phase === 'over') return;
    const now = performance.now();
    if (phase === lastPhase && now - last < REPORT_EVERY_MS) return;
    last = now;
    lastPhase = phase;
    const f = await forkProgress(p, forkId);
    if (!f?.size) return;
    const copied = Object.values(f.copied).reduce((a, b) => a + b, 0);
    const total = Math.max(1, f.size.total);
    if (f.phase === 'map') progress(Math.min(f.size.mapped, total), total, 'Mapping ids');
    else progress(Math.min(copied, total), total, 'Copying rows');
  };
}

/** A fork's progress, read from the database (undefined once it is over). */
export function forkProgress(p: Platform, forkId: string): Promise<ForkProgress | undefined> {
  return p.db.repos.groupRows.forkProgress(p.db, forkId);
}

/** Whether this process is running fork `forkId` now. */
export function forkRunning(p: Platform, forkId: string): boolean {
  return runsOf(p.db).has(forkId);
}
