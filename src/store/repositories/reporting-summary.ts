// Summary SQL: counts and net amounts per day, status, brand, payment method or source,
// with the reporting endpoint's filters. Whole UTC days come from the transaction_daily
// rollup (when every filter is one of its dimensions) and only the partial first and
// last day from transactions, as for count and amount_sum.
import type { Executor } from '../db.js';
import { rollupSplit, where, type ReportScope, type Sql } from './reporting.js';
import { NET_AMOUNT_STATUSES } from '../../domain/reporting.js';
import type { SummaryGroup } from '../../domain/reporting-summary.js';

/** The key of each grouping, in the rollup and in transactions. */
const KEYS: Record<SummaryGroup, { rollup: string; rows: string }> = {
  day: { rollup: 'day', rows: 'substr(created_at, 1, 10)' },
  status: { rollup: 'status', rows: 'status' },
  brand: { rollup: 'brand', rows: "COALESCE(brand, '')" },
  payment_method: { rollup: 'method_detail', rows: 'method_detail' },
  source: { rollup: 'source', rows: 'source' },
};

// The statuses are this module's constants, not input: written into the statement.
const NET = `status IN (${NET_AMOUNT_STATUSES.map((s) => `'${s}'`).join(', ')})`;
const ROLLUP_AMOUNT = `SUM(CASE WHEN ${NET} THEN net_amount ELSE 0 END)`;
const ROWS_AMOUNT = `SUM(CASE WHEN ${NET} THEN captured_amount - refunded_amount ELSE 0 END)`;

export interface SummaryRow {
  key: string;
  count: number;
  amount: number;
}

const createdIn = (from: string, fromOp: '>=' | '>', to: string, toOp: '<' | '<=') => ({
  time: 'created_at',
  from: { value: from, op: fromOp },
  to: { value: to, op: toOp },
});

export const summarySql = {
  byKey(scope: ReportScope, groupBy: SummaryGroup): Sql {
    const out: Sql = { sql: '', params: [] };
    const key = KEYS[groupBy];
    const split = rollupSplit(scope);
    const rowsPart = (w: string) => `SELECT ${key.rows} AS k, COUNT(*) AS c, ${ROWS_AMOUNT} AS a FROM transactions WHERE ${w} GROUP BY k`;
    let parts: string[];
    if (!split) {
      parts = [rowsPart(where(scope, createdIn(scope.start, '>=', scope.end, '<='), out))];
    } else {
      const days = where(scope, { time: 'day', from: { value: split.firstDay, op: '>=' }, to: { value: split.endDay, op: '<' } }, out);
      const head = where(scope, createdIn(scope.start, '>=', split.fullFrom, '<'), out);
      const tail = where(scope, createdIn(split.fullTo, '>=', scope.end, '<='), out);
      parts = [
        `SELECT ${key.rollup} AS k, SUM(tx_count) AS c, ${ROLLUP_AMOUNT} AS a FROM transaction_daily WHERE ${days} GROUP BY k`,
        rowsPart(head),
        rowsPart(tail),
      ];
    }
    // Rollup rows can reach a count of 0 (their transactions moved to another key).
    out.sql = `SELECT k AS key, SUM(c) AS count, SUM(a) AS amount FROM (${parts.join('\nUNION ALL\n')})
GROUP BY k HAVING SUM(c) > 0 ORDER BY k`;
    return out;
  },
};

export const summaryRepo = {
  byKey(ex: Executor, scope: ReportScope, groupBy: SummaryGroup): Promise<SummaryRow[]> {
    const q = summarySql.byKey(scope, groupBy);
    return ex.all<SummaryRow>(q.sql, q.params);
  },
};
