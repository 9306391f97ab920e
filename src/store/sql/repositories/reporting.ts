// Reporting SQL: one builder for the three result shapes. Every value is a bound
// parameter (never concatenated); only the path group's rows are ever read
// (`group_id = ?` is always the first condition); table pages are ordered
// created_at DESC, id DESC so limit/offset paging is stable.
//
// count and amount_sum over whole UTC days read a rollup when every filter is one of its
// dimensions, and only the partial first and last day from transactions; otherwise they
// read transactions. The rollup is transaction_daily_dims (a row per day, status and
// one of brand, method or source: ≈ 50× fewer rows over six months) when the filters
// are the status and at most one of those (wholeDays), else transaction_daily. New transactions are counted into the
// rollup once per write batch (one upsert per day and dimensions touched, rollupOfInserts);
// updates and deletes by triggers (rare next to inserts): ../rollup.ts. The statements
// are SQL both stores accept.
import type { Executor } from '../../interfaces/db.js';
import type { PageCursor, ReportedTransaction, ReportingStore, ReportScope } from '../../interfaces/reporting.js';
import { toTransactionEntity, type TransactionRow } from './transactions.js';
import { SPLIT_SQL } from '../rollup.js';
import { fromSplit, type ExactInt } from '../../../domain/money.js';
import { NET_AMOUNT_STATUSES, type ReportFilters } from '../../../domain/reporting.js';
import { MAX_INSTANT_MS } from '../../../domain/time.js';

export type { ReportScope, ReportedTransaction, PageCursor } from '../../interfaces/reporting.js';

export interface Sql {
  sql: string;
  params: unknown[];
}

type ListParam = Exclude<keyof ReportFilters, 'order_id' | 'source_group_id' | 'destination_group_id' | 'source_or_destination_group_id'>;

/** Array filters → the transactions column they match (IN list). */
const ARRAY_COLUMNS: Record<ListParam, string> = {
  brands: 'brand',
  payment_types: 'transaction_type',
  payment_methods: 'method_detail',
  settlement_batches: 'settlement_batch_id',
  payment_processors: 'processor_id',
  transaction_sources: 'source',
  currencies: 'currency',
  transaction_id: 'id',
  form_ids: 'form_id',
  form_custom_ids: 'form_external_id',
  statuses: 'status',
  plan_ids: 'plan_id',
  subscription_ids: 'subscription_id',
  customer_ids: 'customer_id',
  invoice_numbers: 'invoice_number',
  invoice_ids: 'invoice_id',
  invoice_external_ids: 'invoice_external_id',
};

/** Filters that are dimensions of transaction_daily (same column names there). */
const ROLLUP_FILTERS = new Set<keyof ReportFilters>([
  'brands', 'payment_types', 'payment_methods', 'payment_processors', 'transaction_sources', 'currencies', 'statuses', 'source_group_id',
]);

interface Bound {
  value: string;
  op: '>=' | '>' | '<' | '<=';
}

/** The conditions of one report over one table. */
export function where(
  scope: ReportScope,
  opts: { time: string; from: Bound; to: Bound; onlyStatuses?: readonly string[] },
  out: Sql,
): string {
  const terms: string[] = ['group_id = ?', `${opts.time} ${opts.from.op} ?`, `${opts.time} ${opts.to.op} ?`];
  out.params.push(scope.groupId, opts.from.value, opts.to.value);
  const f = scope.filters;
  let statuses = f.statuses as string[] | undefined;
  if (opts.onlyStatuses) statuses = statuses ? statuses.filter((s) => opts.onlyStatuses!.includes(s)) : [...opts.onlyStatuses];
  for (const [param, column] of Object.entries(ARRAY_COLUMNS) as Array<[ListParam, string]>) {
    const values = param === 'statuses' ? statuses : (f[param] as string[] | undefined);
    if (values === undefined) continue;
    const distinct = [...new Set(values)];
    if (distinct.length === 0) {
      terms.push('1 = 0'); // an empty intersection (amount_sum over only statuses that add 0)
    } else {
      out.params.push(...distinct);
      terms.push(distinct.length === 1 ? `${column} = ?` : `${column} IN (${distinct.map(() => '?').join(', ')})`);
    }
  }
  if (f.order_id !== undefined) {
    terms.push('order_id = ?');
    out.params.push(f.order_id);
  }
  // The source group of a transaction is the group it belongs to.
  if (f.source_group_id !== undefined) {
    terms.push('group_id = ?');
    out.params.push(f.source_group_id);
  }
  if (f.destination_group_id !== undefined) {
    terms.push('destination_group_id = ?');
    out.params.push(f.destination_group_id);
  }
  if (f.source_or_destination_group_id !== undefined) {
    terms.push('(group_id = ? OR destination_group_id = ?)');
    out.params.push(f.source_or_destination_group_id, f.source_or_destination_group_id);
  }
  return terms.join(' AND ');
}

const DAY_MS = 86_400_000;
/** The midnight starting 9999-12-31, the last supported day. */
const LAST_DAY_MS = Math.floor(MAX_INSTANT_MS / DAY_MS) * DAY_MS;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const instantText = (ms: number) => new Date(ms).toISOString();

/**
 * The whole UTC days inside [start, end] (as [firstDay, endDay) day texts and the
 * instants where they begin and end), or undefined when there is none or a filter is
 * not a rollup dimension.
 */
export function rollupSplit(scope: ReportScope): { firstDay: string; endDay: string; fullFrom: string; fullTo: string } | undefined {
  const keys = Object.keys(scope.filters) as Array<keyof ReportFilters>;
  if (!keys.every((k) => ROLLUP_FILTERS.has(k))) return undefined;
  const startMs = Date.parse(scope.start);
  const endMs = Date.parse(scope.end);
  const first = Math.ceil(startMs / DAY_MS) * DAY_MS; // first midnight at or after start
  // Midnight ending the last whole day; a window ending at the last supported instant has
  // its last day read from rows (its midnight after would be year 10000, `+010000-…`
  // text, which sorts before every instant: the tail took every row up to the end).
  const last = Math.min(Math.floor((endMs + 1) / DAY_MS) * DAY_MS, LAST_DAY_MS);
  if (first >= last) return undefined;
  return { firstDay: dayText(first), endDay: dayText(last), fullFrom: instantText(first), fullTo: instantText(last) };
}

/** The filters that are a dimension of transaction_daily_dims (its `value` column). */
const DIM_FILTERS = { brands: 'brand', payment_methods: 'method_detail', transaction_sources: 'source' } as const;
type DimFilter = keyof typeof DIM_FILTERS;

/**
 * Which rows of transaction_daily_dims answer a report over whole days, if any. They hold
 * the status and one dimension: the status filter applies to every row; one filter on
 * brand, payment method or source reads that dimension's rows (`groupDimension`: the
 * dimension a summary groups by, '' for none or day/status); anything more needs
 * transaction_daily.
 */
export function dimsRows(scope: ReportScope, groupDimension = ''): { dimension: string; values?: string[] } | undefined {
  const others = Object.keys(scope.filters).filter((k) => k !== 'statuses');
  if (others.length === 0) return { dimension: groupDimension };
  if (others.length > 1 || !(others[0]! in DIM_FILTERS)) return undefined;
  const filter = others[0] as DimFilter;
  const dimension = DIM_FILTERS[filter];
  if (groupDimension !== '' && groupDimension !== dimension) return undefined;
  return { dimension, values: [...new Set(scope.filters[filter] as string[])] };
}

/**
 * The whole days of a split window in a rollup: the table and its conditions (their
 * parameters appended to `out`). transaction_daily_dims when dimsRows allows it (the
 * status filter as for the rollup, the dimension's filter on `value`), else
 * transaction_daily with every filter.
 */
export function wholeDays(
  scope: ReportScope,
  split: NonNullable<ReturnType<typeof rollupSplit>>,
  out: Sql,
  opts: { groupDimension?: string; onlyStatuses?: readonly string[] } = {},
): { table: 'transaction_daily' | 'transaction_daily_dims'; where: string; dims?: { dimension: string; values?: string[] } } {
  const days = { time: 'day', from: { value: split.firstDay, op: '>=' as const }, to: { value: split.endDay, op: '<' as const }, onlyStatuses: opts.onlyStatuses };
  const dims = dimsRows(scope, opts.groupDimension);
  if (!dims) return { table: 'transaction_daily', where: where(scope, days, out) };
  const statusOnly: ReportScope = { ...scope, filters: scope.filters.statuses ? { statuses: scope.filters.statuses } : {} };
  let w = `${where(statusOnly, days, out)} AND dimension = ?`;
  out.params.push(dims.dimension);
  if (dims.values) {
    w += dims.values.length ? ` AND value IN (${dims.values.map(() => '?').join(', ')})` : ' AND 1 = 0';
    out.params.push(...dims.values);
  }
  return { table: 'transaction_daily_dims', where: w, dims };
}

/** SUM(expr) over a rollup for the whole days + `rowExpr` over transactions for the partial ends. */
function aggregate(scope: ReportScope, rollupExpr: string, rowExpr: string, onlyStatuses?: readonly string[]): Sql {
  const out: Sql = { sql: '', params: [] };
  const split = rollupSplit(scope);
  if (!split) {
    const w = where(scope, { time: 'created_at', from: { value: scope.start, op: '>=' }, to: { value: scope.end, op: '<=' }, onlyStatuses }, out);
    out.sql = `SELECT ${rowExpr} AS v FROM transactions WHERE ${w}`;
    return out;
  }
  const days = wholeDays(scope, split, out, { onlyStatuses });
  const head = where(scope, { time: 'created_at', from: { value: scope.start, op: '>=' }, to: { value: split.fullFrom, op: '<' }, onlyStatuses }, out);
  const tail = where(scope, { time: 'created_at', from: { value: split.fullTo, op: '>=' }, to: { value: scope.end, op: '<=' }, onlyStatuses }, out);
  out.sql = `SELECT (SELECT ${rollupExpr} FROM ${days.table} WHERE ${days.where})
  + (SELECT ${rowExpr} FROM transactions WHERE ${head})
  + (SELECT ${rowExpr} FROM transactions WHERE ${tail}) AS v`;
  return out;
}

const NET_ROW = 'captured_amount - refunded_amount';
/** The two halves of the net amount of a transactions row (see migration 21). */
export const NET_HIGH_ROW = `((${NET_ROW}) / ${SPLIT_SQL})`;
export const NET_LOW_ROW = `((${NET_ROW}) % ${SPLIT_SQL})`;

/**
 * The net amount as two exact halves (h = Σ high, l = Σ low, as decimal text): the rollup
 * for whole days plus the rows of the partial ends. Neither half can overflow (migration
 * 21), and text carries them past 2^53; fromSplit recombines them with BigInt.
 */
function amountHalves(scope: ReportScope): Sql {
  const out: Sql = { sql: '', params: [] };
  const split = rollupSplit(scope);
  const rows = (w: string) => `SELECT SUM(${NET_HIGH_ROW}) AS h, SUM(${NET_LOW_ROW}) AS l FROM transactions WHERE ${w}`;
  let parts: string[];
  if (!split) {
    parts = [rows(where(scope, { time: 'created_at', from: { value: scope.start, op: '>=' }, to: { value: scope.end, op: '<=' }, onlyStatuses: NET_AMOUNT_STATUSES }, out))];
  } else {
    const days = wholeDays(scope, split, out, { onlyStatuses: NET_AMOUNT_STATUSES });
    const head = where(scope, { time: 'created_at', from: { value: scope.start, op: '>=' }, to: { value: split.fullFrom, op: '<' }, onlyStatuses: NET_AMOUNT_STATUSES }, out);
    const tail = where(scope, { time: 'created_at', from: { value: split.fullTo, op: '>=' }, to: { value: scope.end, op: '<=' }, onlyStatuses: NET_AMOUNT_STATUSES }, out);
    parts = [`SELECT SUM(net_high) AS h, SUM(net_low) AS l FROM ${days.table} WHERE ${days.where}`, rows(head), rows(tail)];
  }
  out.sql = `SELECT CAST(SUM(h) AS TEXT) AS h, CAST(SUM(l) AS TEXT) AS l FROM (${parts.join('\nUNION ALL\n')}) AS parts`;
  return out;
}

export const reportingSql = {
  count: (scope: ReportScope): Sql => aggregate(scope, 'COALESCE(SUM(tx_count), 0)', 'COUNT(*)'),
  /** Net amount (see NET_AMOUNT_STATUSES) in two exact halves: rows of other statuses add 0, so they are left out. */
  amountSum: (scope: ReportScope): Sql => amountHalves(scope),
  /** The same count without the rollup (for tests: both must agree). */
  countFromRows(scope: ReportScope): Sql {
    const out: Sql = { sql: '', params: [] };
    const w = where(scope, { time: 'created_at', from: { value: scope.start, op: '>=' }, to: { value: scope.end, op: '<=' } }, out);
    out.sql = `SELECT COUNT(*) AS v FROM transactions WHERE ${w}`;
    return out;
  },
  /**
   * One page, newest first. The inner query picks the page's ids from an index
   * (skipping `offset` entries without reading rows); only the page's rows are read,
   * with their processor joined in the same statement. `after` continues after a row
   * already seen (keyset paging: long exports do not rescan what they skipped).
   */
  page(scope: ReportScope, limit: number, offset: number, after?: PageCursor): Sql {
    const out: Sql = { sql: '', params: [] };
    // After a cursor the window ends at its time (one index range), ties broken by id.
    const to = after && after.created_at < scope.end ? after.created_at : scope.end;
    let w = where(scope, { time: 'created_at', from: { value: scope.start, op: '>=' }, to: { value: to, op: '<=' } }, out);
    if (after) {
      w += ' AND (created_at < ? OR id < ?)';
      out.params.push(after.created_at, after.id);
    }
    out.sql = `SELECT t.*, p.name AS processor_name, p.type AS processor_type
FROM (SELECT id FROM transactions WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) page
JOIN transactions t ON t.id = page.id
LEFT JOIN processors p ON p.id = t.processor_id
ORDER BY t.created_at DESC, t.id DESC`;
    out.params.push(limit, offset);
    return out;
  },
};

export const reportingRepo: ReportingStore = {
  async count(ex: Executor, scope: ReportScope): Promise<number> {
    const q = reportingSql.count(scope);
    return (await ex.get<{ v: number }>(q.sql, q.params))?.v ?? 0;
  },
  /** Exact at any volume: a bigint beyond 2^53. */
  async amountSum(ex: Executor, scope: ReportScope): Promise<ExactInt> {
    const q = reportingSql.amountSum(scope);
    const r = await ex.get<{ h: string | null; l: string | null }>(q.sql, q.params);
    return fromSplit(r?.h, r?.l);
  },
  async page(ex: Executor, scope: ReportScope, limit: number, offset: number, after?: PageCursor): Promise<ReportedTransaction[]> {
    const q = reportingSql.page(scope, limit, offset, after);
    const rows = await ex.all<TransactionRow & { processor_name: string | null; processor_type: string | null }>(q.sql, q.params);
    return rows.map((r) => toTransactionEntity(r) as ReportedTransaction);
  },
};
