// Transactions: the TransactionStore of the use cases. Rows keep addresses,
// custom fields and commissions as JSON text and email_receipt as 0/1; the entity
// (TransactionEntity) has them as objects and booleans — converted here and nowhere else.
import { isTx, type Executor, type Tx, type Update } from '../../interfaces/db.js';
import { rollupOfInserts } from '../rollup.js';
import { flagColumn, fromJsonColumn, jsonColumn } from '../columns.js';
import type { TransactionStore } from '../../interfaces/transactions.js';
import type { TransactionRow } from '../../interfaces/seed.js';
import type { TransactionEntity, TransactionStatus } from '../../../domain/transactions.js';

export type { TransactionRow } from '../../interfaces/seed.js';
type EncodedColumn = 'email_receipt' | 'billing_address' | 'shipping_address' | 'custom_fields' | 'commissions';

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
const ENCODE: Record<EncodedColumn, (t: TransactionEntity) => unknown> = {
  email_receipt: (t) => flagColumn(t.email_receipt),
  billing_address: (t) => jsonColumn(t.billing_address),
  shipping_address: (t) => jsonColumn(t.shipping_address),
  custom_fields: (t) => jsonColumn(t.custom_fields),
  commissions: (t) => jsonColumn(t.commissions),
};
const ENCODERS = COLUMNS.map((c) => (ENCODE as Partial<Record<keyof TransactionRow, (t: TransactionEntity) => unknown>>)[c]);

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
  t.billing_address = fromJsonColumn(row.billing_address) ?? {};
  t.shipping_address = fromJsonColumn(row.shipping_address);
  t.custom_fields = fromJsonColumn(row.custom_fields);
  t.commissions = fromJsonColumn(row.commissions);
  return t as unknown as TransactionEntity;
}

/** The capture's compare-and-set, by its parts (a batch of captures is one statement on SQLite). */
const CAPTURE: Update = {
  table: 'transactions',
  set: 'status = ?, captured_amount = ?, updated_at = ?',
  where: "id = ? AND status = 'authorized' AND ? <= authorized_amount",
};

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
    tx.deferChange(CAPTURE, id, [status, captured, at, id, captured], { changes: 1, error });
  },
  recordCaptureDecline: (ex, id, responseCode, responseText, at) =>
    ex.run("UPDATE transactions SET response_code = ?, response_text = ?, updated_at = ? WHERE id = ? AND status = 'authorized'", [
      responseCode,
      responseText,
      at,
      id,
    ]),
  refund: (ex, id, amount, at) =>
    ex.run(
      `UPDATE transactions SET refunded_amount = refunded_amount + ?,
         status = CASE WHEN refunded_amount + ? >= captured_amount THEN 'refunded' ELSE 'partially_refunded' END,
         updated_at = ?
       WHERE id = ? AND status IN ('settled', 'partially_refunded') AND refunded_amount + ? <= captured_amount`,
      [amount, amount, at, id, amount],
    ),
};
