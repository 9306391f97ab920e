// What reporting needs of a store: counts, sums and pages of one group's transactions
// over a window with the report filters, and the summary per key.
import type { Executor } from './db.js';
import type { TransactionEntity } from '../../domain/transactions.js';
import type { ReportFilters } from '../../domain/reporting.js';
import type { SummaryGroup } from '../../domain/reporting-summary.js';
import type { ExactInt } from '../../domain/money.js';

export interface ReportScope {
  groupId: string;
  /** Inclusive window, ISO UTC with ms (the format of created_at, so text order is time order). */
  start: string;
  end: string;
  filters: ReportFilters;
}

/** A transaction of a report page, with its processor's name and type. */
export type ReportedTransaction = TransactionEntity & { processor_name: string | null; processor_type: string | null };

/** The last row of a page, to continue after. */
export interface PageCursor {
  created_at: string;
  id: string;
}

export interface SummaryRow {
  key: string;
  count: number;
  /** Exact: a bigint beyond 2^53. */
  amount: ExactInt;
}

export interface ReportingStore {
  count(ex: Executor, scope: ReportScope): Promise<number>;
  /** Exact at any volume: a bigint beyond 2^53. */
  amountSum(ex: Executor, scope: ReportScope): Promise<ExactInt>;
  /** Newest first (created_at DESC, id DESC), after `after` when given. */
  page(ex: Executor, scope: ReportScope, limit: number, offset: number, after?: PageCursor): Promise<ReportedTransaction[]>;
}

export interface SummaryStore {
  byKey(ex: Executor, scope: ReportScope, groupBy: SummaryGroup): Promise<SummaryRow[]>;
}
