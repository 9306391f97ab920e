// The reporting summary (GET …/transactions/reporting/summary): the same window and
// filters as the reporting endpoint, answered as counts and net amounts per day,
// status, brand, payment method or source. Pure: `now` is passed in.
import { z } from 'zod';
import {
  normalizeReportQuery, oneOf, reportQuerySchema, resolveWindow, WINDOW_SCALARS, NET_AMOUNT_STATUSES, type RawQuery, type ReportFilters,
} from './reporting.js';
import { fieldsFromZod, validationError } from '../errors.js';
import { exactIntSchema } from './money.js';

export const SUMMARY_GROUPS = ['day', 'status', 'brand', 'payment_method', 'source'] as const;
export type SummaryGroup = (typeof SUMMARY_GROUPS)[number];

export const summaryQuerySchema = reportQuerySchema
  .omit({ type: true, limit: true, offset: true })
  .extend({
    group_by: oneOf(SUMMARY_GROUPS, 'a summary grouping')
      .optional()
      .describe('day (UTC; days without transactions are left out), status, brand, payment_method or source [default: day]'),
  });

export interface SummaryQuery {
  groupBy: SummaryGroup;
  start: string;
  end: string;
  filters: ReportFilters;
}

const SUMMARY_SCALARS = new Set(['group_by', ...WINDOW_SCALARS]);

/** Validate the raw query string and fill the defaults; a 400 names every bad parameter. */
export function parseSummaryQuery(raw: RawQuery, now: Date): SummaryQuery {
  const { value, problems } = normalizeReportQuery(raw, SUMMARY_SCALARS);
  const parsed = summaryQuerySchema.safeParse(value);
  const fields = [...problems, ...(parsed.success ? [] : fieldsFromZod(parsed.error))];
  if (fields.length > 0 || !parsed.success) throw validationError(fields);
  const { group_by, start, end, ...filters } = parsed.data;
  return { groupBy: group_by ?? 'day', ...resolveWindow(start, end, filters, now) };
}

const amountText = `cents: captured_amount − refunded_amount over ${NET_AMOUNT_STATUSES.join(', ')} transactions (others add 0)`;

export const summaryBucketSchema = z
  .object({
    key: z
      .string()
      .describe('the day (YYYY-MM-DD), status, brand ("" for bank accounts), payment method or source'),
    count: z.int().min(1).describe('transactions'),
    amount: exactIntSchema.describe(amountText),
  })
  .meta({ id: 'ReportSummaryBucket' });

export const reportSummarySchema = z
  .object({
    group_by: z.enum(SUMMARY_GROUPS),
    start: z.string().meta({ format: 'date-time' }).describe('the window used (inclusive)'),
    end: z.string().meta({ format: 'date-time' }).describe('the window used (inclusive)'),
    total_count: z.int().min(0),
    total_amount: exactIntSchema.describe(amountText),
    groups: z.array(summaryBucketSchema).describe('ordered by key; only keys with transactions'),
  })
  .meta({ id: 'ReportSummary', description: 'Counts and net amounts per group_by key' });

export type SummaryBucket = z.output<typeof summaryBucketSchema>;
export type ReportSummary = z.output<typeof reportSummarySchema>;
