// What happens to a transaction after it is created: get, capture (variants A and B),
// void and refund. Every change is a compare-and-set on the status inside one write, so
// two concurrent captures (or a capture and a void) can never both succeed.
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import type { GroupContext } from '../context.js';
import type { Executor, Tx } from '../../store/db.js';
import type { RefundRequest, Transaction } from '../../domain/transactions.js';
import { captureOutcome, refundOutcome, VOIDABLE_STATUSES, type CaptureRequest } from '../../domain/transaction-transitions.js';
import { invalidRequest, notFound } from '../../errors.js';
import { findProcessor } from '../groups/groups.js';
import { transactionRepo, type TransactionRow } from '../../store/repositories/transactions.js';
import { toApiTransaction } from './mapper.js';

async function load(ex: Executor, groupId: string, id: string): Promise<TransactionRow> {
  const row = await transactionRepo.find(ex, groupId, id);
  if (!row) throw notFound('transaction');
  return row;
}

// Processors never change once created: the answer names the transaction's from the
// server's cache (one writer round trip fewer per capture, void and refund).
async function present(p: Platform, row: TransactionRow): Promise<Transaction> {
  const processor = await findProcessor(p.db, row.group_id, row.processor_id);
  return toApiTransaction(row, processor ?? { name: '', type: '' });
}

async function reloadAndPresent(p: Platform, tx: Tx, groupId: string, id: string): Promise<Transaction> {
  return present(p, await load(tx, groupId, id));
}

export async function getTransaction(p: Platform, ctx: GroupContext, id: string): Promise<Transaction> {
  return present(p, await load(ctx.store, ctx.group, id));
}

/**
 * Capture (variants A and B over HTTP, the CLI's --amount). The row is read before the
 * write, on the reader: what is decided from it either never changes (amounts,
 * processor) or is checked again by the compare-and-set (the status).
 */
export async function captureTransaction(p: Platform, ctx: GroupContext, id: string, req: CaptureRequest): Promise<Transaction> {
  const row = await load(ctx.store, ctx.group, id);
  const { amount, status } = captureOutcome(row, req);
  return unitOfWork(ctx, async ({ tx }) => {
    const at = ctx.clock.nowIso();
    // Sent with the batch; the write (and its answer) fails if another request got there first.
    transactionRepo.deferCapture(tx, id, amount, status, at, () => invalidRequest('this transaction was captured or changed by another request'));
    // The compare-and-set changes exactly these columns: no read-back.
    return present(p, { ...row, status, captured_amount: amount, updated_at: at });
  });
}

export async function voidTransaction(p: Platform, ctx: GroupContext, id: string): Promise<Transaction> {
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await load(tx, ctx.group, id);
    const { changes } = await transactionRepo.setStatus(tx, id, VOIDABLE_STATUSES, 'voided', ctx.clock.nowIso());
    if (changes !== 1) throw invalidRequest(`only a pending or authorized transaction can be voided; this one is ${row.status}`);
    return reloadAndPresent(p, tx, ctx.group, id);
  });
}

export async function refundTransaction(p: Platform, ctx: GroupContext, id: string, req: RefundRequest): Promise<Transaction> {
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await load(tx, ctx.group, id);
    const { amount } = refundOutcome(row, req.amount);
    const { changes } = await transactionRepo.refund(tx, id, amount, ctx.clock.nowIso());
    if (changes !== 1) throw invalidRequest('this transaction was refunded or changed by another request');
    return reloadAndPresent(p, tx, ctx.group, id);
  });
}
