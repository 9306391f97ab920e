// Transactions on SQLite: the TransactionStore of the use cases. Rows keep addresses,
// custom fields and commissions as JSON text and email_receipt as 0/1; the entity
// (TransactionEntity) has them as objects and booleans — converted here and nowhere else.
import { isTx, type Executor, type Tx } from '../db.js';
import { rollupOfInserts } from './reporting.js';
import type { TransactionStore } from '../interfaces/transactions.js';
import type { TransactionEntity, TransactionStatus } from '../../domain/transactions.js';

/** The stored row (bulk seeding writes rows directly). */
export interface TransactionRow {
  id: string;
  group_id: string;
  linked_account_id: string | null;
  processor_id: string;
  transaction_type: 'sale' | 'auth';
  payment_method: string;
  method_detail: string;
  customer_id: string | null;
  card_id: string | null;
  bank_account_id: string | null;
  brand: string | null;
  card_type: string | null;
  first_six: string | null;
  last_four: string | null;
  customer_name: string;
  expiration_date: string | null;
  avs: string | null;
  cvv: string | null;
  issued_country: string | null;
  dynamic_descriptor: string | null;
  requested_amount: number;
  authorized_amount: number;
  captured_amount: number;
  refunded_amount: number;
  included_tax_amount: number | null;
  included_shipping_amount: number | null;
  currency: string;
  description: string;
  source: string;
  order_id: string;
  po_number: string;
  ip_address: string;
  email_receipt: number;
  email_address: string;
  user_id: string;
  username: string;
  billing_address: string | null;
  shipping_address: string | null;
  form_id: string | null;
  form_external_id: string;
  form_entry_id: string;
  subscription_id: string | null;
  plan_id: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  invoice_external_id: string | null;
  payment_link_id: string | null;
  destination_group_id: string | null;
  custom_fields: string | null;
  commissions: string | null;
  response_code: string;
  response_text: string;
  status: string;
  settlement_batch_id: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS: Array<keyof TransactionRow> = [
  'id', 'group_id', 'linked_account_id', 'processor_id', 'transaction_type', 'payment_method', 'method_detail',
  'customer_id', 'card_id', 'bank_account_id', 'brand', 'card_type', 'first_six', 'last_four', 'customer_name',
  'expiration_date', 'avs', 'cvv', 'issued_country', 'dynamic_descriptor', 'requested_amount', 'authorized_amount',
  'captured_amount', 'refunded_amount', 'included_tax_amount', 'included_shipping_amount', 'currency', 'description',
  'source', 'order_id', 'po_number', 'ip_address', 'email_receipt', 'email_address', 'user_id', 'username',
  'billing_address', 'shipping_address', 'form_id', 'form_external_id', 'form_entry_id', 'subscription_id', 'plan_id',
  'invoice_id', 'invoice_number', 'invoice_external_id', 'payment_link_id', 'destination_group_id', 'custom_fields',
  'commissions', 'response_code', 'response_text', 'status', 'settlement_batch_id', 'created_at', 'updated_at',
];
export const TRANSACTION_COLUMNS = COLUMNS;

// Only these columns differ between row and entity; every other value is the same.
const ENCODE: Partial<Record<keyof TransactionRow, (t: TransactionEntity) => unknown>> = {
  email_receipt: (t) => (t.email_receipt ? 1 : 0),
  billing_address: (t) => JSON.stringify(t.billing_address),
  shipping_address: (t) => (t.shipping_address ? JSON.stringify(t.shipping_address) : null),
  custom_fields: (t) => (t.custom_fields ? JSON.stringify(t.custom_fields) : null),
  commissions: (t) => (t.commissions ? JSON.stringify(t.commissions) : null),
};
const ENCODERS = COLUMNS.map((c) => ENCODE[c]);

/** The column values of a transaction, in COLUMNS order. */
function values(t: TransactionEntity): unknown[] {
  return COLUMNS.map((c, i) => {
    const encode = ENCODERS[i];
    return encode ? encode(t) : t[c as keyof TransactionEntity];
  });
}

/**
 * The entity of a row read back. The row object is fresh from the driver and nobody
 * else holds it: it becomes the entity in place (no copy of its 56 fields per row of a
 * report page).
 */
export function toTransactionEntity(row: TransactionRow): TransactionEntity {
  const t = row as unknown as Record<keyof TransactionRow, unknown>;
  t.email_receipt = row.email_receipt === 1;
  t.billing_address = row.billing_address ? JSON.parse(row.billing_address) : {};
  t.shipping_address = row.shipping_address ? JSON.parse(row.shipping_address) : null;
  t.custom_fields = row.custom_fields ? JSON.parse(row.custom_fields) : null;
  t.commissions = row.commissions ? JSON.parse(row.commissions) : null;
  return t as unknown as TransactionEntity;
}

export const transactionRepo: TransactionStore = {
  /**
   * Inside a write the row is deferred: sent with the batch's other new transactions in
   * one statement, and counted into the reporting rollup once per batch.
   */
  insert(ex, t) {
    ex.deferInsert('transactions', COLUMNS, values(t));
    ex.accumulate(rollupOfInserts, t);
  },
  /** Many rows in one statement. */
  async insertMany(ex, ts) {
    if (ts.length === 0) return;
    for (const t of ts) ex.accumulate(rollupOfInserts, t);
    const one = `(${COLUMNS.map(() => '?').join(', ')})`;
    await ex.run(`INSERT INTO transactions (${COLUMNS.join(', ')}) VALUES ${ts.map(() => one).join(', ')}`, ts.flatMap(values));
  },
  async find(ex, groupId, id) {
    const sql = 'SELECT * FROM transactions WHERE group_id = ? AND id = ?';
    // Inside a write, new rows of the batch not yet sent are sent first only if one is this row.
    const row = isTx(ex) ? await ex.getById<TransactionRow>('transactions', id, sql, [groupId, id]) : await ex.get<TransactionRow>(sql, [groupId, id]);
    return row && toTransactionEntity(row);
  },
  async findMany(ex, ids) {
    if (ids.length === 0) return [];
    // One statement text whatever the count (the ids travel as one JSON array).
    const rows = await ex.all<TransactionRow>('SELECT * FROM transactions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id', [JSON.stringify(ids)]);
    return rows.map(toTransactionEntity);
  },
  setCustomer: (ex, id, customerId) => ex.run('UPDATE transactions SET customer_id = ? WHERE id = ?', [customerId, id]),
  /** Compare-and-set status change: only from one of `from`. */
  setStatus: (ex, id, from, to, at) =>
    ex.run(
      `UPDATE transactions SET status = ?, updated_at = ? WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
      [to, at, id, ...from],
    ),
  /**
   * Capture as a compare-and-set sent with the write's batch (no trip of its own): the
   * write fails with `error()` unless the row was still authorized for at least `captured`.
   */
  deferCapture(tx, id, captured, status, at, error) {
    tx.deferChange(
      'transactions',
      id,
      "UPDATE transactions SET status = ?, captured_amount = ?, updated_at = ? WHERE id = ? AND status = 'authorized' AND ? <= authorized_amount",
      [status, captured, at, id, captured],
      { changes: 1, error },
    );
  },
  refund: (ex, id, amount, at) =>
    ex.run(
      `UPDATE transactions SET refunded_amount = refunded_amount + ?,
         status = CASE WHEN refunded_amount + ? >= captured_amount THEN 'refunded' ELSE 'partially_refunded' END,
         updated_at = ?
       WHERE id = ? AND status IN ('settled', 'partially_refunded') AND refunded_amount + ? <= captured_amount`,
      [amount, amount, at, id, amount],
    ),
};
