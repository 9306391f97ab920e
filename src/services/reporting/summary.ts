// The reporting summary: counts and net amounts per key for the reporting filters.
// The HTTP route, `payctl report --summary` and the report browser's summary view all
// come through here.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import { parseSummaryQuery, type ReportSummary, type SummaryBucket, type SummaryQuery } from '../../domain/reporting-summary.js';
import { rawQuerySchema } from '../../domain/reporting.js';
import { exactSum, type ExactInt } from '../../domain/money.js';

/** GET /api/v1/groups/{group_id}/transactions/reporting/summary: the query string, read on the group's clock. */
export const reportingSummary = useCase({
  input: z.object({ query: rawQuerySchema }),
  run: (p: Platform, ctx: GroupContext, input): Promise<ReportSummary> => summarize(p, ctx.group, parseSummaryQuery(input.query, ctx.clock.now())),
});

/** A validated summary query. */
export async function summarize(p: Platform, groupId: string, q: SummaryQuery): Promise<ReportSummary> {
  const groups = await p.db.repos.summary.byKey(p.db, { groupId, start: q.start, end: q.end, filters: q.filters }, q.groupBy);
  return {
    group_by: q.groupBy,
    start: q.start,
    end: q.end,
    total_count: groups.reduce((n, g) => n + g.count, 0),
    total_amount: exactSum(groups.map((g) => g.amount)),
    groups,
  };
}

export const SUMMARY_DIMENSIONS = ['status', 'brand', 'payment_method', 'source'] as const;
export type SummaryDimension = (typeof SUMMARY_DIMENSIONS)[number];

/** Every grouping of one window: what the summary view and `payctl report --summary` show. */
export interface ReportSummaryAll extends Record<SummaryDimension | 'day', SummaryBucket[]> {
  start: string;
  end: string;
  total_count: number;
  total_amount: ExactInt;
}

/** `payctl report --summary`, the report browser's summary and the dashboard's reports: every grouping of the query's window. */
export const reportingSummaryAll = useCase({
  input: z.object({ query: rawQuerySchema }),
  run: (p: Platform, ctx: GroupContext, input): Promise<ReportSummaryAll> => {
    const { start, end, filters } = parseSummaryQuery(input.query, ctx.clock.now());
    return summarizeAll(p, ctx.group, { start, end, filters });
  },
});

export async function summarizeAll(p: Platform, groupId: string, w: Omit<SummaryQuery, 'groupBy'>): Promise<ReportSummaryAll> {
  const [day, status, brand, payment_method, source] = await Promise.all(
    (['day', ...SUMMARY_DIMENSIONS] as const).map((groupBy) => summarize(p, groupId, { ...w, groupBy })),
  );
  return {
    start: w.start,
    end: w.end,
    total_count: day!.total_count,
    total_amount: day!.total_amount,
    day: day!.groups,
    status: status!.groups,
    brand: brand!.groups,
    payment_method: payment_method!.groups,
    source: source!.groups,
  };
}
