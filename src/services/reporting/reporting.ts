// Transaction reporting (spec 13): a page of transactions, a count or a net amount sum
// over the path group's transactions, with the query's filters; and the export of every
// matching transaction, page after page. The HTTP route, `payctl report` and the report
// browser all come through here.
import type { ExactInt } from '../../domain/money.js';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import { requireLinkedAccount } from '../groups/groups.js';
import { toApiTransaction } from '../transactions/mapper.js';
import type { PageCursor, ReportScope } from '../../store/interfaces/reporting.js';
import { parseExportQuery, parseReportQuery, rawQuerySchema, type ReportFilters, type ReportQuery, type ReportResult } from '../../domain/reporting.js';
import type { Transaction } from '../../domain/transactions.js';
import { PAGE_LIMIT_MAX } from '../../domain/paging.js';

/** The reporting query string of a linked account's transactions. */
const reportInput = z.object({ linked_account_id: z.string(), query: rawQuerySchema });

/** GET …/processing/{linked_account_id}/transactions/reporting. */
export const report = useCase({
  input: reportInput,
  async run(p: Platform, ctx: GroupContext, input): Promise<ReportResult> {
    await requireLinkedAccount(ctx.store, ctx.group, input.linked_account_id);
    return runReport(p, ctx.group, parseReportQuery(input.query, ctx.clock.now()));
  },
});

/** An export under way: how many transactions match, how many will come, and the pages as they are read. */
export interface ReportExport {
  total_count: number;
  /** Rows the pages will hold (the query's offset and cap applied). */
  count: number;
  /** Newest first, at most PAGE_LIMIT_MAX a page. */
  pages: AsyncIterable<Transaction[]>;
}

/**
 * Every matching transaction (or `limit` of them, which may exceed the API's page
 * limit), one page at a time. The window's end is fixed when the export starts, and
 * each page continues after the last row of the one before (keyset), so rows that
 * arrive meanwhile neither shift nor repeat rows.
 */
export const exportReport = useCase({
  input: reportInput,
  async run(p: Platform, ctx: GroupContext, input): Promise<ReportExport> {
    await requireLinkedAccount(ctx.store, ctx.group, input.linked_account_id);
    const { query, cap } = parseExportQuery(input.query, ctx.clock.now());
    const scope = scopeOf(ctx.group, query);
    const total = await p.db.repos.reporting.count(p.db, scope);
    const count = Math.min(cap, Math.max(0, total - query.offset));
    return { total_count: total, count, pages: pagesOf(p, scope, query.offset, count) };
  },
});

async function* pagesOf(p: Platform, scope: ReportScope, offset: number, count: number): AsyncGenerator<Transaction[]> {
  let done = 0;
  let after: PageCursor | undefined;
  while (done < count) {
    const items = await pageOf(p, scope, Math.min(PAGE_LIMIT_MAX, count - done), after ? 0 : offset, after);
    if (items.length === 0) return;
    done += items.length;
    const last = items[items.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
    yield items;
  }
}

export interface ReportWindow {
  start: string;
  end: string;
  filters: ReportFilters;
}

const scopeOf = (groupId: string, w: ReportWindow): ReportScope => ({ groupId, start: w.start, end: w.end, filters: w.filters });

/** A validated query, in its result shape. */
export async function runReport(p: Platform, groupId: string, q: ReportQuery): Promise<ReportResult> {
  const scope = scopeOf(groupId, q);
  switch (q.type) {
    case 'count':
      return { total_count: await p.db.repos.reporting.count(p.db, scope) };
    case 'amount_sum':
      return { total_amount: await p.db.repos.reporting.amountSum(p.db, scope) };
    case 'table': {
      const total = await p.db.repos.reporting.count(p.db, scope);
      // Past the end there is nothing to page through: skip the scan.
      const items = q.offset >= total || q.limit === 0 ? [] : await pageOf(p, scope, q.limit, q.offset);
      return { items, total_count: total };
    }
  }
}

async function pageOf(p: Platform, scope: ReportScope, limit: number, offset: number, after?: PageCursor): Promise<Transaction[]> {
  const rows = await p.db.repos.reporting.page(p.db, scope, limit, offset, after);
  return rows.map((r) => toApiTransaction(r, { name: r.processor_name ?? '', type: r.processor_type ?? '' }));
}

/** The report browser's page: `limit` rows from `offset` of the query's window (its limit and offset are the browser's). */
export const reportingPage = useCase({
  input: z.object({ query: rawQuerySchema, offset: z.number().int().min(0), limit: z.number().int().min(0) }),
  run: (p: Platform, ctx: GroupContext, input) => reportPage(p, ctx.group, parseReportQuery(input.query, ctx.clock.now()), input.offset, input.limit),
});

/** The report browser's totals: count and net amount of the query's window. */
export const reportingTotals = useCase({
  input: z.object({ query: rawQuerySchema }),
  run: (p: Platform, ctx: GroupContext, input) => reportSummary(p, ctx.group, parseReportQuery(input.query, ctx.clock.now())),
});

/** One page only (the report browser asks for the summary separately). */
export async function reportPage(p: Platform, groupId: string, w: ReportWindow, offset: number, limit: number): Promise<Transaction[]> {
  return pageOf(p, scopeOf(groupId, w), limit, offset);
}

/** Count and net amount for the same filters. */
export async function reportSummary(p: Platform, groupId: string, w: ReportWindow): Promise<{ total_count: number; total_amount: ExactInt }> {
  const scope = scopeOf(groupId, w);
  const [total_count, total_amount] = await Promise.all([p.db.repos.reporting.count(p.db, scope), p.db.repos.reporting.amountSum(p.db, scope)]);
  return { total_count, total_amount };
}
