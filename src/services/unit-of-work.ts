// The unit of work: one write transaction holding everything one operation changes —
// the use case's rows, the Idempotency-Key record with the answer it gave, and the
// events it emitted. Nothing else crosses into the store: the request context says
// which key to claim, and the use case hands its changes over through `uow.tx`.
import type { Tx } from '../store/interfaces/db.js';
import type { RequestContext } from './context.js';
import { appendEvents, type PendingEvent } from './events/events.js';
import { StoreUnavailable } from '../store/errors.js';

export interface UnitOfWork {
  /** The write transaction: pass it to repositories. */
  readonly tx: Tx;
  readonly ctx: RequestContext;
  /** Record an event; it is appended in this same transaction, just before the commit. */
  emit(event: PendingEvent): void;
  /** Work to run once the transaction committed (e.g. SMTP delivery). */
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * The request's answer when it is not the result (an error after a recorded decline),
   * known inside the write: the Idempotency-Key record holds it from the commit on, so a
   * retry on any server replays this answer, never a result the client was not sent.
   */
  answer(status: number, body: unknown): void;
  /**
   * The request's answer is known only after the commit (an onboarding 202 when the
   * e-mail fails): the Idempotency-Key is recorded as still running until the
   * dispatcher settles it, so a replay on any server gets 409 until then, never an
   * answer the client was not sent.
   */
  settleAfterCommit(): void;
}

/**
 * Run `fn` in one write transaction for `ctx`. With an Idempotency-Key, the first unit
 * of work of the request claims it: a completed record of the key ends the request as
 * a replay, otherwise the record is written with `fn`'s result in the same transaction.
 * Resolves after the commit.
 */
export async function unitOfWork<T>(ctx: RequestContext, fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const claim = ctx.idempotency?.state === 'open' ? ctx.idempotency : undefined;
  if (claim) claim.state = 'claiming';
  try {
    const value = await ctx.store.write(async (tx) => {
      if (claim) await claim.check(tx);
      const events: PendingEvent[] = [];
      let answer: { status: number; body: unknown } | undefined;
      let later = false;
      const value = await fn({
        tx,
        ctx,
        emit: (e) => events.push(e),
        afterCommit: (f) => tx.afterCommit(f),
        answer: (status, body) => (answer = { status, body }),
        settleAfterCommit: () => (later = true),
      });
      appendEvents(tx, ctx, events);
      if (claim) await claim.record(tx, value, answer, later);
      return value;
    });
    if (claim) claim.state = 'claimed';
    return value;
  } catch (err) {
    if (claim) {
      claim.state = 'open';
      // The COMMIT went unanswered: the record may be saved; the dispatcher looks it up.
      if (err instanceof StoreUnavailable && err.commitUnknown) claim.outcomeUnknown = true;
    }
    throw err;
  }
}
