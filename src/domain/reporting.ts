// Transaction reporting queries (spec 13, docs/decisions.md#reporting-queries): the query
// string of GET …/transactions/reporting, normalised from its three array encodings,
// checked by one zod schema, and resolved (defaults on the platform clock) into a
// ReportQuery that the store turns into SQL. Pure: `now` is passed in.
import { z } from 'zod';
import { exactIntSchema } from './money.js';
import { instantSchema, readInstant } from './time.js';
// Paging is the rule of every list (src/domain/paging.ts); a larger limit is refused (400), not clamped: the spec's rule for an exceeded bound.
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './paging.js';
import { ALL_SOURCES, STATUSES, transactionSchema, type TransactionStatus } from './transactions.js';
import { validationError, fieldsFromZod, unknownName, type FieldProblem } from '../errors.js';

export const REPORT_TYPES = ['table', 'count', 'amount_sum'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const BRANDS = ['Visa', 'Mastercard', 'Discover', 'American Express'] as const;
/** The spec's enum; only `sale` and `auth` exist on this platform, the others are valid and match nothing. */
export const PAYMENT_TYPES = ['wallet', 'sale', 'refund', 'fulfillment', 'auth', 'spendback', 'payout', 'fund'] as const;
/** The spec's enum; stored transactions carry card, customer_card, ach or customer_ach. */
export const PAYMENT_METHODS = [
  'wallet', 'card', 'customer_card', 'customer_ach', 'ach', 'same_day_ach', 'ach_debit_fund', 'standard_ach', 'rtp_ach',
] as const;
export const TRANSACTION_SOURCES = ALL_SOURCES;
export const CURRENCIES = ['USD'] as const;
/** The spec's nine statuses plus `partially_captured`, which a partial capture returns. */
export const REPORT_STATUSES = STATUSES;

/** Values per array filter. */
export const MAX_VALUES = 100;
export const DEFAULT_WINDOW_MONTHS = 6;

/**
 * What amount_sum adds up: the net amount the merchant keeps, per transaction
 * captured_amount − refunded_amount for these statuses (a pending sale is captured
 * in full when approved), and 0 for authorized (nothing captured yet), declined,
 * voided and expired.
 */
export const NET_AMOUNT_STATUSES = [
  'pending', 'settled', 'captured', 'partially_captured', 'partially_refunded', 'refunded',
] as const satisfies readonly TransactionStatus[];

export function netAmount(t: { status: string; captured_amount: number; refunded_amount: number }): number {
  return (NET_AMOUNT_STATUSES as readonly string[]).includes(t.status) ? t.captured_amount - t.refunded_amount : 0;
}

// ---------------------------------------------------------------------------
// Parameters

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.enum(values, {
    error: (iss) =>
      iss.input === undefined
        ? `is required; use one of: ${values.join(', ')}`
        : `${JSON.stringify(iss.input)} is not ${what}; use one of: ${values.join(', ')}`,
  });
const uuidValue = z.string().regex(UUID_RE, { error: (iss) => `${JSON.stringify(iss.input)} is not a UUID` });
const textValue = (max: number) =>
  z.string().min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` });
const list = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_VALUES, { error: `at most ${MAX_VALUES} values` }).optional();

/** Array filters (three encodings each) and the value each must hold. */
const arrayFilters = {
  brands: list(oneOf(BRANDS, 'a brand')),
  payment_types: list(oneOf(PAYMENT_TYPES, 'a payment type')),
  payment_methods: list(oneOf(PAYMENT_METHODS, 'a payment method')),
  settlement_batches: list(uuidValue),
  payment_processors: list(uuidValue),
  transaction_sources: list(oneOf(TRANSACTION_SOURCES, 'a transaction source')),
  currencies: list(oneOf(CURRENCIES, 'a supported currency')),
  transaction_id: list(uuidValue),
  form_ids: list(uuidValue),
  form_custom_ids: list(textValue(255)),
  statuses: list(oneOf(REPORT_STATUSES, 'a transaction status')),
  plan_ids: list(uuidValue),
  subscription_ids: list(uuidValue),
  customer_ids: list(uuidValue),
  invoice_numbers: list(textValue(255)),
  invoice_ids: list(uuidValue),
  invoice_external_ids: list(textValue(255)),
};
export const ARRAY_PARAMS = Object.keys(arrayFilters) as Array<keyof typeof arrayFilters>;

/** Single-valued filters. */
const singleFilters = {
  order_id: textValue(100).optional(),
  source_group_id: uuidValue.optional(),
  destination_group_id: uuidValue.optional(),
  source_or_destination_group_id: uuidValue.optional(),
};

const digits = (what: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,16}$/, { error: `must be a whole number (${what})` })
    .transform(Number)
    .pipe(z.int().min(0).max(max, { error: `must be at most ${max}` }));

/** An RFC 3339 date-time (or a full-date, read as midnight UTC) → the fixed-width UTC form; undefined if invalid (src/domain/time.ts). */
export function parseRfc3339(text: string): string | undefined {
  const r = readInstant(text, { date: true });
  return r.ok ? r.iso : undefined;
}

const instant = instantSchema({ date: true });

/**
 * The query string after normalisation (every array filter a list of strings). Used
 * to validate, and by the OpenAPI document (arrays as repeated keys).
 */
export const reportQuerySchema = z.strictObject({
  type: oneOf(REPORT_TYPES, 'a report type').describe('table, count or amount_sum: selects the result shape'),
  limit: digits(`0 to ${PAGE_LIMIT_MAX}`, PAGE_LIMIT_MAX).optional().describe(`rows of a table (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX})`),
  offset: digits('rows to skip', Number.MAX_SAFE_INTEGER).optional().describe('rows to skip (default 0)'),
  start: instant.optional().describe('RFC 3339; default 6 months before now (platform clock); inclusive'),
  end: instant.optional().describe('RFC 3339; default now (platform clock); inclusive'),
  ...arrayFilters,
  ...singleFilters,
});

type ParsedQuery = z.output<typeof reportQuerySchema>;
export type ReportFilters = Omit<ParsedQuery, 'type' | 'limit' | 'offset' | 'start' | 'end'>;

export interface ReportQuery {
  type: ReportType;
  limit: number;
  offset: number;
  /** ISO UTC with ms; the window is inclusive at both ends. */
  start: string;
  end: string;
  filters: ReportFilters;
}

/** Scalar parameters shared by every reporting endpoint (the window and single-valued filters). */
export const WINDOW_SCALARS = ['start', 'end', ...Object.keys(singleFilters)];
const SCALAR_PARAMS = ['type', 'limit', 'offset', ...WINDOW_SCALARS];
const ARRAY_SET = new Set<string>(ARRAY_PARAMS);
const SCALAR_SET = new Set<string>(SCALAR_PARAMS);

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Fold the three array encodings into one list per filter: repeated keys
 * (`statuses=a&statuses=b`), bracket keys (`statuses[]=a`, which arrive as their own
 * key) and comma lists (`statuses=a,b`); empty items are dropped. A scalar parameter
 * given twice, or a parameter the endpoint does not have, is a problem.
 */
export function normalizeReportQuery(
  raw: RawQuery,
  scalars: ReadonlySet<string> = SCALAR_SET,
): { value: Record<string, string | string[]>; problems: FieldProblem[] } {
  const value: Record<string, string | string[]> = {};
  const problems: FieldProblem[] = [];
  for (const [key, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const items = Array.isArray(v) ? v : [v];
    if (ARRAY_SET.has(name)) {
      const prev = (value[name] as string[] | undefined) ?? [];
      value[name] = [...prev, ...items.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '')];
    } else if (scalars.has(name) && name === key) {
      if (items.length !== 1 || name in value) problems.push({ path: name, message: 'must be given once' });
      value[name] ??= items[0]!;
    } else {
      problems.push({ path: key, message: scalars.has(name) ? 'takes one value, not a list' : unknownName('query parameter of this endpoint', name, [...ARRAY_SET, ...scalars]) });
    }
  }
  return { value, problems };
}

/** `months` calendar months before `from` (UTC), the day clamped to the month's length. */
export function monthsBefore(from: Date, months: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() - months;
  const target = new Date(Date.UTC(y, m, 1));
  const days = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), days));
  target.setUTCHours(from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds());
  return target;
}

/** Validate the raw query string and fill the defaults; throws a 400 naming every bad parameter and value. */
export function parseReportQuery(raw: RawQuery, now: Date): ReportQuery {
  const { value, problems } = normalizeReportQuery(raw);
  const parsed = reportQuerySchema.safeParse(value);
  const fields = [...problems, ...(parsed.success ? [] : fieldsFromZod(parsed.error))];
  if (fields.length > 0 || !parsed.success) throw validationError(fields);
  const { type, limit, offset, start, end, ...filters } = parsed.data;
  const window = resolveWindow(start, end, filters, now);
  return { type, limit: limit ?? PAGE_LIMIT_DEFAULT, offset: offset ?? 0, ...window };
}

/** A raw query string as a use case's input: each parameter once or repeated. */
export const rawQuerySchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]).optional());

/**
 * An export's query: the reporting query of a table (its type is table whatever was
 * asked), with `limit` read as a cap on the rows exported — any whole number, beyond
 * the API's page limit; none means every row.
 */
export function parseExportQuery(raw: RawQuery, now: Date): { query: ReportQuery; cap: number } {
  const { limit, ...rest } = raw;
  if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,16}$/.test(limit))) throw validationError([{ path: 'limit', message: 'must be a whole number' }]);
  const query = parseReportQuery({ ...rest, type: 'table', limit: '0' }, now);
  return { query, cap: limit === undefined ? Infinity : Number(limit) };
}

/**
 * The window (defaults on the platform clock) and the filters without empty lists:
 * what every reporting endpoint does with its parsed start, end and filters.
 */
export function resolveWindow(start: string | undefined, end: string | undefined, filters: ReportFilters, now: Date): { start: string; end: string; filters: ReportFilters } {
  const endIso = end ?? now.toISOString();
  const startIso = start ?? monthsBefore(now, DEFAULT_WINDOW_MONTHS).toISOString();
  if (startIso > endIso) {
    throw validationError([
      {
        path: start ? 'start' : 'end',
        message: start
          ? `must not be after end (${endIso})`
          : `is before the default start (${startIso}, ${DEFAULT_WINDOW_MONTHS} months before now); give start too`,
      },
    ]);
  }
  // Drop empty lists (`statuses=` or `statuses=,`): no filter, as if absent.
  const clean = Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  ) as ReportFilters;
  return { start: startIso, end: endIso, filters: clean };
}

// ---------------------------------------------------------------------------
// Results (spec "Reporting results")

export const reportTableSchema = z
  .object({ items: z.array(transactionSchema), total_count: z.int().min(0).describe('every match, not just this page') })
  .meta({ id: 'ReportTable', description: 'type=table' });
export const reportCountSchema = z.object({ total_count: z.int().min(0) }).meta({ id: 'ReportCount', description: 'type=count' });
export const reportAmountSumSchema = z
  .object({
    total_amount: exactIntSchema
      .describe(`cents, exact at any size: captured_amount − refunded_amount over ${NET_AMOUNT_STATUSES.join(', ')} transactions`),
  })
  .meta({ id: 'ReportAmountSum', description: 'type=amount_sum' });
export const reportResultSchema = z
  .union([reportTableSchema, reportCountSchema, reportAmountSumSchema])
  .meta({ id: 'ReportResult', description: 'The shape `type` selects' });
export type ReportTable = z.output<typeof reportTableSchema>;
export type ReportCount = z.output<typeof reportCountSchema>;
export type ReportAmountSum = z.output<typeof reportAmountSumSchema>;
export type ReportResult = ReportTable | ReportCount | ReportAmountSum;
