// What happens to a transaction after it is created: get, capture (variants A and B),
// void and refund. Every change is a compare-and-set on the status inside one write, so
// two concurrent captures (or a capture and a void) can never both succeed.
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import type { GroupContext } from '../context.js';
import type { Executor, Tx } from '../../store/db.js';
import { captureSchemaFor, refundSchema, type Transaction } from '../../domain/transactions.js';
import { invalidRequest, notFound, parseOrThrow, validationError } from '../../errors.js';
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

export async function captureTransaction(p: Platform, ctx: GroupContext, id: string, body: unknown): Promise<Transaction> {
  const groupId = ctx.group;
  const req = parseOrThrow(captureSchemaFor(body), body);
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await load(tx, groupId, id);
    if (row.status !== 'authorized') {
      throw invalidRequest(`only an authorized transaction can be captured; this one is ${row.status}`);
    }
    let amount: number;
    if ('amount' in req) {
      if (req.amount !== row.authorized_amount) {
        throw validationError([{ path: 'amount', message: `must equal the authorized amount (${row.authorized_amount})` }]);
      }
      amount = req.amount;
    } else {
      if (req.processor_id !== row.processor_id) {
        throw validationError([{ path: 'processor_id', message: 'must be the processor of the authorized transaction' }]);
      }
      amount = req.amounts.captured_amount ?? req.amounts.requested_amount;
      const path = req.amounts.captured_amount !== undefined ? 'amounts.captured_amount' : 'amounts.requested_amount';
      if (amount > row.authorized_amount) {
        throw validationError([{ path, message: `must not exceed the authorized amount (${row.authorized_amount})` }]);
      }
      if (amount === 0) throw validationError([{ path, message: 'must be at least 1 cent' }]);
    }
    const status = amount === row.authorized_amount ? 'captured' : 'partially_captured';
    const at = ctx.clock.nowIso();
    const { changes } = await transactionRepo.capture(tx, id, amount, status, at);
    if (changes !== 1) throw invalidRequest('this transaction was captured or changed by another request');
    // The compare-and-set changed exactly these columns: no read-back on the writer (issue 9).
    return present(p, { ...row, status, captured_amount: amount, updated_at: at });
  });
}

export async function voidTransaction(p: Platform, ctx: GroupContext, id: string): Promise<Transaction> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await load(tx, groupId, id);
    const { changes } = await transactionRepo.setStatus(tx, id, ['pending', 'authorized'], 'voided', ctx.clock.nowIso());
    if (changes !== 1) throw invalidRequest(`only a pending or authorized transaction can be voided; this one is ${row.status}`);
    return reloadAndPresent(p, tx, groupId, id);
  });
}

export async function refundTransaction(p: Platform, ctx: GroupContext, id: string, body: unknown): Promise<Transaction> {
  const groupId = ctx.group;
  const req = parseOrThrow(refundSchema, body ?? {});
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await load(tx, groupId, id);
    if (row.status !== 'settled' && row.status !== 'partially_refunded') {
      throw invalidRequest(`only a settled transaction can be refunded; this one is ${row.status} (void it instead if it is pending)`);
    }
    const remaining = row.captured_amount - row.refunded_amount;
    const amount = req.amount ?? remaining;
    if (amount > remaining) {
      throw invalidRequest(`refund of ${amount} exceeds the ${remaining} left to refund`, [{ path: 'amount', message: `must be at most ${remaining}` }]);
    }
    const { changes } = await transactionRepo.refund(tx, id, amount, ctx.clock.nowIso());
    if (changes !== 1) throw invalidRequest('this transaction was refunded or changed by another request');
    return reloadAndPresent(p, tx, groupId, id);
  });
}
