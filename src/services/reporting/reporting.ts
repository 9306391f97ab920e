// Transaction reporting (spec 13): a page of transactions, a count or a net amount sum
// over the path group's transactions, with the query's filters. The HTTP route, the
// `payctl report` command and the report browser all come through here.
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import { requireLinkedAccount } from '../groups/groups.js';
import { toApiTransaction } from '../transactions/mapper.js';
import { reportingRepo, type PageCursor, type ReportScope } from '../../store/repositories/reporting.js';
import { parseReportQuery, type RawQuery, type ReportFilters, type ReportQuery, type ReportResult } from '../../domain/reporting.js';
import type { Transaction } from '../../domain/transactions.js';

/** GET …/processing/{linked_account_id}/transactions/reporting. */
export async function report(p: Platform, ctx: GroupContext, linkedAccountId: string, query: RawQuery): Promise<ReportResult> {
  const groupId = ctx.group;
  await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
  return runReport(p, groupId, parseReportQuery(query, ctx.clock.now()));
}

export interface ReportWindow {
  start: string;
  end: string;
  filters: ReportFilters;
}

function scopeOf(_p: Platform, groupId: string, w: ReportWindow): ReportScope {
  return { groupId, start: w.start, end: w.end, filters: w.filters };
}

/** A validated query, in its result shape. */
export async function runReport(p: Platform, groupId: string, q: ReportQuery): Promise<ReportResult> {
  const scope = scopeOf(p, groupId, q);
  switch (q.type) {
    case 'count':
      return { total_count: await reportingRepo.count(p.db, scope) };
    case 'amount_sum':
      return { total_amount: await reportingRepo.amountSum(p.db, scope) };
    case 'table': {
      const total = await reportingRepo.count(p.db, scope);
      // Past the end there is nothing to page through: skip the scan.
      const items = q.offset >= total || q.limit === 0 ? [] : await pageOf(p, scope, q.limit, q.offset);
      return { items, total_count: total };
    }
  }
}

async function pageOf(p: Platform, scope: ReportScope, limit: number, offset: number, after?: PageCursor): Promise<Transaction[]> {
  const rows = await reportingRepo.page(p.db, scope, limit, offset, after);
  return rows.map((r) => toApiTransaction(r, { name: r.processor_name ?? '', type: r.processor_type ?? '' }));
}

/**
 * One page only (the report browser asks for the summary separately); with `after`
 * (the last transaction of the previous page) the page continues after it, for
 * exports that walk every row.
 */
export async function reportPage(p: Platform, groupId: string, w: ReportWindow, offset: number, limit: number, after?: PageCursor): Promise<Transaction[]> {
  return pageOf(p, scopeOf(p, groupId, w), limit, offset, after);
}

/** Count and net amount for the same filters. */
export async function reportSummary(p: Platform, groupId: string, w: ReportWindow): Promise<{ total_count: number; total_amount: number }> {
  const scope = scopeOf(p, groupId, w);
  const [total_count, total_amount] = await Promise.all([reportingRepo.count(p.db, scope), reportingRepo.amountSum(p.db, scope)]);
  return { total_count, total_amount };
}
