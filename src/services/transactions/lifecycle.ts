// What happens to a transaction after it is created: get, capture (variants A and B),
// void and refund. Every change is a compare-and-set on the status inside one write, so
// two concurrent captures (or a capture and a void) can never both succeed.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import { event } from '../events/events.js';
import type { GroupContext } from '../context.js';
import type { Executor, Tx } from '../../store/interfaces/db.js';
import { refundSchema, type Transaction, type TransactionEntity } from '../../domain/transactions.js';
import { captureOutcome, captureRequestInput, refundOutcome, VOIDABLE_STATUSES } from '../../domain/transaction-transitions.js';
import { invalidRequest, notFound } from '../../errors.js';
import { findProcessor } from '../groups/groups.js';
import { toApiTransaction } from './mapper.js';

async function load(ex: Executor, groupId: string, id: string): Promise<TransactionEntity> {
  const row = await ex.repos.transactions.find(ex, groupId, id);
  if (!row) throw notFound('transaction');
  return row;
}

// Processors never change once created: the answer names the transaction's from the
// server's cache (one writer round trip fewer per capture, void and refund).
async function present(p: Platform, row: TransactionEntity): Promise<Transaction> {
  const processor = await findProcessor(p.db, row.group_id, row.processor_id);
  return toApiTransaction(row, processor ?? { name: '', type: '' });
}

async function reloadAndPresent(p: Platform, tx: Tx, groupId: string, id: string): Promise<Transaction> {
  return present(p, await load(tx, groupId, id));
}

const byId = z.object({ transaction_id: z.string() });

export const getTransaction = useCase({
  input: byId,
  run: async (p: Platform, ctx: GroupContext, input): Promise<Transaction> => present(p, await load(ctx.store, ctx.group, input.transaction_id)),
});

/**
 * Capture (variants A and B over HTTP, the CLI's --amount), as the typed capture
 * request. The row is read before the write, on the reader: what is decided from it
 * either never changes (amounts, processor) or is checked again by the compare-and-set
 * (the status).
 */
export const captureTransaction = useCase({
  input: byId.extend({ capture: captureRequestInput }),
  async run(p: Platform, ctx: GroupContext, input): Promise<Transaction> {
    const id = input.transaction_id;
    const row = await load(ctx.store, ctx.group, id);
    const { amount, status } = captureOutcome(row, input.capture);
    const forced = ctx.forcedOutcome;
    if (forced && !forced.approved) return declineCapture(p, ctx, row, forced.response_code, forced.response_text);
    return unitOfWork(ctx, async ({ tx, emit }) => {
      const at = ctx.clock.nowIso();
      // Sent with the batch; the write (and its answer) fails if another request got there first.
      tx.repos.transactions.deferCapture(tx, id, amount, status, at, () => invalidRequest('this transaction was captured or changed by another request'));
      // The compare-and-set changes exactly these columns: no read-back.
      const captured = await present(p, { ...row, status, captured_amount: amount, updated_at: at });
      emit(event('transaction.captured', captured));
      return captured;
    });
  },
});

/**
 * A capture the processor refused (a sandbox's decline fault, docs/faults.md): nothing
 * is captured and the auth stays authorized (a later capture may succeed); its
 * response code and text become the refusal's, answered like any decline.
 */
async function declineCapture(p: Platform, ctx: GroupContext, row: TransactionEntity, code: string, text: string): Promise<Transaction> {
  return unitOfWork(ctx, async ({ tx }) => {
    const at = ctx.clock.nowIso();
    const { changes } = await tx.repos.transactions.recordCaptureDecline(tx, row.id, code, text, at);
    if (changes !== 1) throw invalidRequest('this transaction was captured or changed by another request');
    return present(p, { ...row, response_code: code, response_text: text, updated_at: at });
  });
}

export const voidTransaction = useCase({
  input: byId,
  run: (p: Platform, ctx: GroupContext, input): Promise<Transaction> =>
    unitOfWork(ctx, async ({ tx, emit }) => {
      const id = input.transaction_id;
      const row = await load(tx, ctx.group, id);
      const { changes } = await tx.repos.transactions.setStatus(tx, id, VOIDABLE_STATUSES, 'voided', ctx.clock.nowIso());
      if (changes !== 1) throw invalidRequest(`only a pending or authorized transaction can be voided; this one is ${row.status}`);
      const voided = await reloadAndPresent(p, tx, ctx.group, id);
      emit(event('transaction.voided', voided));
      return voided;
    }),
});

/** Refund all that is left, or `amount` of it. */
export const refundTransaction = useCase({
  input: refundSchema.extend(byId.shape),
  run: (p: Platform, ctx: GroupContext, input): Promise<Transaction> =>
    unitOfWork(ctx, async ({ tx, emit }) => {
      const id = input.transaction_id;
      const row = await load(tx, ctx.group, id);
      const { amount } = refundOutcome(row, input.amount);
      const { changes } = await tx.repos.transactions.refund(tx, id, amount, ctx.clock.nowIso());
      if (changes !== 1) throw invalidRequest('this transaction was refunded or changed by another request');
      const refunded = await reloadAndPresent(p, tx, ctx.group, id);
      emit(event('transaction.refunded', refunded));
      return refunded;
    }),
});
