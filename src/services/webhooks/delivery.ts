// Sending webhook deliveries: a job, never a side effect of the write that made the
// event. Passes of a process's sender (sender.ts) read, claim, send and record what is
// due on a group's clock; a failed attempt is retried on the group's clock
// (RETRY_DELAYS_MS, counted from when the attempt fell due, so a clock advance of days
// runs every retry that fell due in it); after the last it has failed. A frozen or
// accelerated group's deliveries keep real time instead (the platform clock: first
// attempts at once, retries counted from when the attempt was sent; docs/clock.md).
//
// Who runs passes: `payctl serve`'s delivery loop (delivery-loop.ts: nudged after each
// commit that appended events of a group with endpoints, and when a full lane has room
// again), its timer's sweep of every group (handed to the loop's lanes: nothing there
// waits on a receiver), and the scheduler's job in a clock move (`clock advance`, the
// sandbox clock route), which waits for its attempts — but for one round only at an
// endpoint that is slow, so a hanging receiver does not hold a clock move for its whole
// backlog. The lease is real time: it bounds how long a process that died mid-send keeps
// a delivery from the others, and an attempt never outlives its lease (one whose turn
// comes too late to get its time is not sent; it is due again when the lease ends).
import { z } from 'zod';
import { platformClock, withClockOffset, type Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { deliveryClock } from '../clock/clock.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import { senderFor, type PassTarget } from './sender.js';
import { deliveryLoopOf } from './delivery-loop.js';

/**
 * Send every delivery of `scope` due by `until` (default: the scope's clock, read at each
 * round) that this process can claim, and wait for them to be recorded (retries that
 * fall due meanwhile too). An endpoint that turns out slow gets one round: its backlog
 * is left to the serving process or the next pass. In `payctl serve`, a sweep of every
 * group (an offset scope: the timer's, the start's) only hands the work to the loop's
 * lanes. Returns the attempts made.
 */
export async function deliverDue(t: PassTarget, scope: GroupScope, until?: Date): Promise<number> {
  const s = senderFor(t.db);
  const dueBy = () => (until ?? t.clock.now()).toISOString();
  if (deliveryLoopOf(t.db) && !('groupId' in scope)) {
    let handed = 0;
    for (;;) {
      const r = await s.dispatch(t, scope, dueBy(), { backlog: true });
      for (const a of r.started) a.catch((err: unknown) => process.stderr.write(`webhook delivery failed: ${String(err)}\n`));
      handed += r.started.length;
      if (!r.more || r.started.length === 0) return handed;
    }
  }
  let attempts = 0;
  let failure: { err: unknown } | undefined;
  const mine = new Set<Promise<void>>();
  const touched = new Set<string>();
  const slow = new Set<string>();
  for (;;) {
    const r = await s.dispatch(t, scope, dueBy(), { skip: slow, backlog: false });
    for (const id of r.endpoints) touched.add(id);
    for (const a of r.started) {
      const done: Promise<void> = a.then(
        (made) => {
          if (made) attempts++;
          mine.delete(done);
        },
        (err: unknown) => {
          failure ??= { err };
          mine.delete(done);
        },
      );
      mine.add(done);
    }
    if (failure) {
      await Promise.all(mine); // every attempt made is recorded (or failed to be) before the error goes up
      throw failure.err;
    }
    if (r.started.length > 0 && r.more) continue;
    if (mine.size === 0 && !r.waitable) {
      // What was left to slow endpoints goes from the serving process's loop, if this is one.
      const loop = deliveryLoopOf(t.db);
      for (const id of slow) {
        const lane = s.lanes.get(id);
        if (lane && loop) loop.nudge(lane.groupId);
      }
      return attempts;
    }
    await Promise.race([...mine, s.lanes.nextRoom()]);
    for (const id of touched) if (s.lanes.get(id)?.provenSlow()) slow.add(id);
  }
}

/** Every due delivery of every group, one pass per distinct clock offset (a server's start), and one for groups on real time. */
export async function deliverAllDue(p: Platform): Promise<number> {
  let n = 0;
  for (const { offset_ms: offsetMs } of await p.db.repos.groupClocks.distinctOffsets(p.db)) {
    const shifted = withClockOffset(p, offsetMs);
    n += await deliverDue({ db: p.db, clock: shifted.clock, env: p.env }, { offsetMs });
  }
  return n + (await deliverRealTimeDue(p));
}

/** Every due delivery of the groups whose clock is frozen or accelerated: their deliveries keep real time (the platform clock). */
export function deliverRealTimeDue(p: Platform): Promise<number> {
  return deliverDue({ db: p.db, clock: platformClock(p), env: p.env, realTime: true }, { realTime: true });
}

/** A group's (or a scope's) deliveries, on the clock they keep: `p`'s clock when it runs, else real time (clock.ts deliveryClock). */
export function deliverGroupDue(p: Platform, scope: GroupScope, until: Date): Promise<number> {
  const d = deliveryClock(p.clock);
  return deliverDue({ db: p.db, clock: d.clock, env: p.env, realTime: d.realTime }, scope, d.realTime ? undefined : until);
}

/** Deliveries waiting to be delivered, of every group (the metrics' gauge). */
export const countPendingDeliveries = useCase({
  input: z.object({}),
  run: (p: Platform, ctx: RequestContext): Promise<number> => ctx.store.repos.webhookDeliveries.countPending(ctx.store),
});
