// The report browser's table (report-browser.tsx): the columns that fit the terminal
// (the least important go first), a row's cells, and a transaction's detail lines.
import type { Transaction } from '../domain/transactions.js';
import { customerText } from '../render/report.js';
import { paidWith } from '../render/transactions.js';
import { dateTime, money as formatMoney } from '../render/format.js';

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
export interface TableColumn {
  title: string;
  width: number;
  /** Higher stays longer when the terminal is narrow. */
  priority: number;
  right?: boolean;
  cell: (t: Transaction) => string;
}
export const COLUMNS: TableColumn[] = [
  { title: 'date', width: 21, priority: 6, cell: (t) => dateTime(t.created_at) },
  // The longest status word is 10 characters.
  { title: 'status', width: 11, priority: 5, cell: (t) => t.status },
  { title: 'amount', width: 13, priority: 4, right: true, cell: (t) => formatMoney(t.amounts.requested_amount, t.currency) },
  { title: 'method', width: 24, priority: 3, cell: (t) => paidWith(t) },
  { title: 'source', width: 17, priority: 1, cell: (t) => t.source },
  { title: 'customer', width: 24, priority: 2, cell: (t) => customerText(t) },
];
/** The row's marker (`› `) before the cells. */
const MARKER = 2;
const widthOf = (cols: readonly TableColumn[]) => MARKER + cols.reduce((n, c) => n + c.width, 0) + Math.max(0, cols.length - 1);

/**
 * The columns that fit `width` terminal columns, in table order: the least important go
 * first, and the last column of the terminal stays free (a full line would wrap on some
 * terminals). All six need 117 columns; 80 shows date, status, amount and method.
 */
export function fitColumns(width: number): TableColumn[] {
  let shown = [...COLUMNS];
  while (shown.length > 1 && widthOf(shown) > width - 1) {
    const least = shown.reduce((a, b) => (b.priority < a.priority ? b : a));
    shown = shown.filter((c) => c !== least);
  }
  return shown;
}
export const cellsOf = (cols: readonly TableColumn[], t: Transaction | undefined) =>
  cols.map((c) => {
    const text = t ? c.cell(t) : c.title;
    return c.right ? text.slice(0, c.width - 1).padStart(c.width - 1) + ' ' : pad(text, c.width);
  });

export function detailLines(t: Transaction): Array<[string, string]> {
  const a = t.amounts;
  const money = (n: number) => formatMoney(n, t.currency);
  return [
    ['id', t.id],
    ['created', dateTime(t.created_at)],
    ['status', t.status],
    ['type', `${t.transaction_type} · ${t.payment_method}`],
    ['method', paidWith(t)],
    ['customer', [customerText(t), t.customer_id ? `(${t.customer_id})` : ''].filter(Boolean).join(' ')],
    ['requested', money(a.requested_amount)],
    ['authorized', money(a.authorized_amount)],
    ['captured', money(a.captured_amount)],
    ['refunded', money(a.refunded_amount)],
    ['source', t.source],
    ['order id', t.order_id],
    ['description', t.description],
    ['processor', `${t.processor_name} (${t.processor_id})`],
    ['settlement batch', t.settlement_batch_ids.join(', ')],
    ['response', `${t.response_code} ${t.response_text}`],
  ].filter(([, v]) => v !== '') as Array<[string, string]>;
}
