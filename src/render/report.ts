// How a reported transaction is shown: the columns of `payctl report` (table and CSV)
// and of the report browser; and the report's filters in words.
import type { Transaction } from '../domain/transactions.js';
import { dateTime, money } from './format.js';
import { paidWith } from './transactions.js';
import { statusWord } from './colour.js';
import type { CsvValue } from './csv.js';
import type { Column } from './table.js';

export function customerText(t: Transaction): string {
  const name = t.payment_details.card?.customer_name ?? t.payment_details.bank_account?.holder_name ?? '';
  return name || t.customer_id || '';
}

/** The id, date, status and amount matter most; the rest shows when there is room. */
export const TABLE_HEAD: Column[] = [
  { title: 'date', priority: 6 },
  { title: 'status', priority: 5 },
  { title: 'amount', priority: 4 },
  { title: 'method', priority: 2, truncate: 12 },
  { title: 'source', priority: 1 },
  { title: 'customer', priority: 3, truncate: 12 },
  { title: 'id', priority: 7 },
];

export const tableRow = (t: Transaction): string[] => [
  dateTime(t.created_at),
  statusWord(t.status),
  money(t.amounts.requested_amount, t.currency),
  paidWith(t),
  t.source,
  customerText(t),
  t.id,
];

/** CSV: one column per field a spreadsheet needs; amounts in cents. */
export const CSV_HEAD = [
  'id', 'created_at', 'status', 'transaction_type', 'payment_method', 'brand', 'last_four', 'requested_amount',
  'authorized_amount', 'captured_amount', 'refunded_amount', 'currency', 'source', 'customer_id', 'customer_name',
  'order_id', 'processor_id', 'settlement_batch_id',
];

export function csvRow(t: Transaction): CsvValue[] {
  const card = t.payment_details.card;
  return [
    t.id, t.created_at, t.status, t.transaction_type, t.payment_method, card?.brand ?? '',
    card?.last_four ?? t.payment_details.bank_account?.last_four ?? '', t.amounts.requested_amount, t.amounts.authorized_amount,
    t.amounts.captured_amount, t.amounts.refunded_amount, t.currency, t.source, t.customer_id ?? '', customerText(t),
    t.order_id, t.processor_id, t.settlement_batch_ids[0] ?? '',
  ];
}

/**
 * The report browser's filters in words ("status settled,pending", "brand Visa", "from …",
 * "to …"): its filter bar, and the notice of saved filters dropped (src/cli/report-filters.ts).
 */
export function filterWords(f: { statuses?: string[]; brands?: string[]; start?: string; end?: string }): string[] {
  return [
    f.statuses ? `status ${f.statuses.join(',')}` : '',
    f.brands ? `brand ${f.brands.join(',')}` : '',
    f.start ? `from ${f.start}` : '',
    f.end ? `to ${f.end}` : '',
  ].filter(Boolean);
}
