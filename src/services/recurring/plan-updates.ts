// A plan update with update_subscriptions reaches every active subscription of the plan.
// A plan may have many, so that part runs in chunks (clock/chunks.ts), like a clock
// move's catch-up: each chunk is a write of its own that takes subscriptions in id order
// until CHUNK_BUDGET_MS of work, commits with where it stopped (plan_update_jobs), and
// yields, paced so other groups' writes go in between. The plan's row and the job are
// written by the update's own unit of work, so the job is there whatever happens next:
// the request waits for the last chunk, and after a kill -9 the server's tick goes on
// with it from the database. A second update of the plan restarts its job from the first
// subscription with the newer terms.
import { forGroup, type Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import type { Store } from '../../store/interfaces/db.js';
import { planTerms } from '../../domain/recurring.js';
import { appendClockEvent, appendEvents, updatedEvent } from '../events/events.js';
import type { PendingEvent } from '../events/events.js';
import { CHUNK_WRITE, chunkDeadline, Pacer, pastDeadline } from '../clock/chunks.js';
import { applyTerms } from './billing.js';
import { toSubscription } from './mapper.js';
import { AppError } from '../../errors.js';
import type { SubscriptionEntity } from '../../domain/recurring/entities.js';

/** Subscriptions one chunk reads at most (it stops earlier once past its budget). */
const CHUNK_ROWS = 100;

const runs = new WeakMap<Store, Map<string, Promise<number>>>();
const runsOf = (db: Store) => {
  let m = runs.get(db);
  if (!m) runs.set(db, (m = new Map()));
  return m;
};

/**
 * Bring every active subscription of plan `planId` to the plan's terms, as its job in the
 * database says, until the job is over; a run already going in this process is joined,
 * and one that ended before a newer update recorded its job is followed by another.
 * `ctx`: the request that updated the plan (its events carry it). Returns subscriptions updated.
 */
export async function completePlanUpdate(p: Platform, planId: string, ctx?: RequestContext): Promise<number> {
  let n = 0;
  for (;;) {
    const mine = runsOf(p.db);
    let run = mine.get(planId);
    if (!run) {
      run = runChunks(p, planId, ctx).finally(() => mine.delete(planId));
      mine.set(planId, run);
    }
    n += await run;
    if (!(await p.db.repos.plans.pendingUpdates(p.db)).includes(planId)) return n;
  }
}

async function runChunks(p: Platform, planId: string, ctx: RequestContext | undefined): Promise<number> {
  const pacer = new Pacer(p.db);
  let n = 0;
  for (;;) {
    pacer.start();
    const deadline = chunkDeadline();
    const chunk = await p.db.write(async (tx) => {
      const job = await tx.repos.plans.claimUpdate(tx, planId);
      if (!job) return null;
      const plan = await tx.repos.plans.find(tx, job.group_id, job.linked_account_id, planId);
      const rows = plan ? await tx.repos.subscriptions.activeOfPlan(tx, planId, job.cursor, CHUNK_ROWS) : [];
      if (!plan || rows.length === 0) {
        await tx.repos.plans.endUpdate(tx, planId);
        return { updated: 0, over: true };
      }
      const g = await forGroup(p, job.group_id, tx);
      const at = g.clock.nowIso();
      const events: PendingEvent[] = [];
      const emit = (e: PendingEvent) => events.push(e);
      const methods = await tx.repos.subscriptions.paymentMethods(tx, rows);
      let cursor = job.cursor;
      let updated = 0;
      for (const row of rows) {
        cursor = row.id;
        let terms: SubscriptionEntity;
        try {
          terms = await applyTerms(tx, g, row, planTerms(plan), job.behavior, methods, emit);
        } catch (err) {
          // Past the money bound (checked for every subscription before the update, so only
          // when a charge changed it since): refused before anything of it was written, it
          // keeps its terms rather than stop the plan's other subscriptions.
          if (!(err instanceof AppError)) throw err;
          process.stderr.write(`plan ${planId} update: subscription ${row.id} keeps its terms: ${err.message}\n`);
          continue;
        }
        const next = { ...terms, updated_at: job.updated_at };
        if ((await tx.repos.subscriptions.save(tx, next)) !== 1) throw new Error(`subscription ${row.id} changed during the plan update`);
        // Each subscription the plan's new terms reached is updated too.
        const changed = updatedEvent('subscription.updated', toSubscription(row, methods), toSubscription(next, methods));
        if (changed) emit(changed);
        updated++;
        if (pastDeadline(deadline)) break;
      }
      if (ctx && ctx.group === job.group_id) appendEvents(tx, ctx, events);
      else for (const e of events) appendClockEvent(tx, job.group_id, at, e);
      await tx.repos.plans.advanceUpdate(tx, planId, cursor);
      return { updated, over: false };
    }, CHUNK_WRITE);
    if (!chunk) return n;
    n += chunk.updated;
    if (chunk.over) return n;
    await pacer.rest();
  }
}

/** Go on with every plan update a killed server left part-way (the server's tick). Returns subscriptions updated. */
export async function resumePlanUpdates(p: Platform): Promise<number> {
  let n = 0;
  for (const planId of await p.db.repos.plans.pendingUpdates(p.db)) n += await completePlanUpdate(p, planId);
  return n;
}
