// Summary SQL: counts and net amounts per day, status, brand, payment method or source,
// with the reporting endpoint's filters. Whole UTC days come from a rollup and only the
// partial first and last day from transactions, as for count and amount_sum: from
// transaction_daily_dims (status and one dimension: few rows) when the filters are the
// status and at most one of brand, payment method, source (reporting.ts wholeDays), else from
// transaction_daily when every filter is one of its dimensions.
import type { Executor } from '../../interfaces/db.js';
import { NET_HIGH_ROW, NET_LOW_ROW, rollupSplit, where, wholeDays, type ReportScope, type Sql } from './reporting.js';
import { fromSplit, type ExactInt } from '../../../domain/money.js';
import { NET_AMOUNT_STATUSES } from '../../../domain/reporting.js';
import type { SummaryGroup } from '../../../domain/reporting-summary.js';
import type { SummaryRow, SummaryStore } from '../../interfaces/reporting.js';
import type { Dialect } from '../dialect.js';

/**
 * The key of each grouping: in the rollup, in transactions (in the store's dialect), and
 * in the per-dimension rollup (transaction_daily_dims: which dimension's rows, and the
 * key column there).
 */
const KEYS: Record<SummaryGroup, { rollup: string; rows: (d: Dialect) => string; dims: { dimension: string; key: string } }> = {
  day: { rollup: 'day', rows: (d) => d.utcDay('created_at'), dims: { dimension: '', key: 'day' } },
  status: { rollup: 'status', rows: () => 'status', dims: { dimension: '', key: 'status' } },
  brand: { rollup: 'brand', rows: () => "COALESCE(brand, '')", dims: { dimension: 'brand', key: 'value' } },
  payment_method: { rollup: 'method_detail', rows: () => 'method_detail', dims: { dimension: 'method_detail', key: 'value' } },
  source: { rollup: 'source', rows: () => 'source', dims: { dimension: 'source', key: 'value' } },
};

// The statuses are this module's constants, not input: written into the statement.
const NET = `status IN (${NET_AMOUNT_STATUSES.map((s) => `'${s}'`).join(', ')})`;
// Net amounts in two exact halves (migration 21): h and l, recombined by fromSplit.
const ROLLUP_AMOUNT = `SUM(CASE WHEN ${NET} THEN net_high ELSE 0 END) AS h, SUM(CASE WHEN ${NET} THEN net_low ELSE 0 END) AS l`;
const ROWS_AMOUNT = `SUM(CASE WHEN ${NET} THEN ${NET_HIGH_ROW} ELSE 0 END) AS h, SUM(CASE WHEN ${NET} THEN ${NET_LOW_ROW} ELSE 0 END) AS l`;

export type { SummaryRow } from '../../interfaces/reporting.js';

const createdIn = (from: string, fromOp: '>=' | '>', to: string, toOp: '<' | '<=') => ({
  time: 'created_at',
  from: { value: from, op: fromOp },
  to: { value: to, op: toOp },
});

export const summarySql = {
  byKey(d: Dialect, scope: ReportScope, groupBy: SummaryGroup): Sql {
    const out: Sql = { sql: '', params: [] };
    const key = KEYS[groupBy];
    const split = rollupSplit(scope);
    const rowsPart = (w: string) => `SELECT ${key.rows(d)} AS k, COUNT(*) AS c, ${ROWS_AMOUNT} FROM transactions WHERE ${w} GROUP BY k`;
    let parts: string[];
    if (!split) {
      parts = [rowsPart(where(scope, createdIn(scope.start, '>=', scope.end, '<='), out))];
    } else {
      const days = wholeDays(scope, split, out, { groupDimension: key.dims.dimension });
      const k = days.table === 'transaction_daily_dims' ? key.dims.key : key.rollup;
      const head = where(scope, createdIn(scope.start, '>=', split.fullFrom, '<'), out);
      const tail = where(scope, createdIn(split.fullTo, '>=', scope.end, '<='), out);
      parts = [
        `SELECT ${k} AS k, SUM(tx_count) AS c, ${ROLLUP_AMOUNT} FROM ${days.table} WHERE ${days.where} GROUP BY k`,
        rowsPart(head),
        rowsPart(tail),
      ];
    }
    // Rollup rows can reach a count of 0 (their transactions moved to another key).
    out.sql = `SELECT k AS key, SUM(c) AS count, CAST(SUM(h) AS TEXT) AS h, CAST(SUM(l) AS TEXT) AS l FROM (${parts.join('\nUNION ALL\n')}) AS parts
GROUP BY k HAVING SUM(c) > 0 ORDER BY k`;
    return out;
  },
};

export const summaryRepo: SummaryStore = {
  async byKey(ex: Executor, scope: ReportScope, groupBy: SummaryGroup): Promise<SummaryRow[]> {
    const q = summarySql.byKey(ex.dialect, scope, groupBy);
    const rows = await ex.all<{ key: string; count: number; h: string | null; l: string | null }>(q.sql, q.params);
    return rows.map((r) => ({ key: r.key, count: r.count, amount: fromSplit(r.h, r.l) }));
  },
};
