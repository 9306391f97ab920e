// The values of a sandbox file's rows held to the API's rules (docs/sandboxes.md,
// "Checked before anything is written"): an import writes rows the API would never have
// made otherwise, and due work, reports and lists read them as the API's own. So every
// column a rule of the API bounds is checked here, with the API's rule itself — money
// (`amount`: whole cents, 0 to 99,999,999,999), instants and dates (src/domain/time.ts:
// RFC 3339, years 1970–9999; kept in the stored fixed-width form), the enumerations, a
// sandbox's name (as sandbox create takes it) — and every other value to what the API
// bounds it by: text 5,000 characters (documents: the 1 MiB body cap), numbers whole and
// exact. Pure: the file checker (sandbox-file.ts) calls it for each row.
import { amount, MAX_AMOUNT } from './money.js';
import { END_OF_TIME, readInstant } from './time.js';
import { ALL_SOURCES, STATUSES } from './transactions.js';
import { BILLING_CYCLES, PRORATION_BEHAVIORS, PRORATION_RESULTS, SUBSCRIPTION_STATUSES } from './recurring/constants.js';
import { INVOICE_STATUSES } from './catalog/invoices.js';
import { LINK_STATUSES } from './payment-links.js';
import { EMAIL_STATUSES } from './email.js';
import { SIGNUP_ENTRY_STATUSES } from './onboarding/response.js';
import { PRICING, PROCESSOR_TYPES } from './permissions.js';
import { DEFAULT_MAX } from './strings.js';

/** A sandbox's name, as sandbox create takes it (src/domain/sandboxes.ts). */
export const SANDBOX_NAME_MAX = 100;
/** A JSON document column (an event's payload, an address, an e-mail's body): the API's request body cap. */
export const DOCUMENT_MAX = 1024 * 1024;

type Rule =
  | { kind: 'money' }
  | { kind: 'credit' }
  | { kind: 'instant' }
  | { kind: 'date' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'text'; max: number }
  | { kind: 'count' };

const money: Rule = { kind: 'money' };
const instant: Rule = { kind: 'instant' };
const count: Rule = { kind: 'count' };
const oneOf = (values: readonly string[]): Rule => ({ kind: 'enum', values });
const text = (max: number): Rule => ({ kind: 'text', max });
const document = text(DOCUMENT_MAX);

/** The columns a rule of the API bounds, per table; `*_at` columns are instants wherever they are. */
const RULES: Record<string, Record<string, Rule>> = {
  groups: { name: { kind: 'text', max: SANDBOX_NAME_MAX }, pricing: oneOf(PRICING) },
  processors: { type: oneOf(PROCESSOR_TYPES) },
  customers: { billing_address: document },
  customer_cards: { billing_address: document },
  settlement_batches: { total_amount: count, transaction_count: count },
  transactions: {
    requested_amount: money, authorized_amount: money, captured_amount: money, refunded_amount: money,
    included_tax_amount: money, included_shipping_amount: money,
    transaction_type: oneOf(['sale', 'auth']), status: oneOf(STATUSES), source: oneOf(ALL_SOURCES),
    billing_address: document, shipping_address: document, custom_fields: document, commissions: document,
  },
  plans: {
    amount: money, initial_amount: money, trial_amount: money, shipping_amount: money, tax: money,
    billing_cycle: oneOf(BILLING_CYCLES), proration_behavior: oneOf(PRORATION_BEHAVIORS),
    trial_period_days: count, billing_factor: count, duration: count, max_retry_count: count,
    retry_policy: document, custom_fields: document,
  },
  subscriptions: {
    amount: money, tax_amount: money, shipping_amount: money, initial_amount: money, trial_amount: money,
    billing_cycle: oneOf(BILLING_CYCLES), status: oneOf(SUBSCRIPTION_STATUSES), proration_result: oneOf(PRORATION_RESULTS),
    start_at: instant, next_bill_date: instant, billing_period_start: instant, billing_period_end: instant,
    trial_period_days: count, billing_factor: count, duration: count, max_retry_count: count,
    charge_count: count, failure_attempt_count: count, retry_count: count, anchor_count: count,
    retry_policy: document, token_snapshot: document, billing_address: document,
  },
  products: { amount: money, included_tax_amount: money },
  invoices: { amount: money, status: oneOf(INVOICE_STATUSES), due_date: { kind: 'date' } },
  invoice_lines: { amount: money, included_tax_amount: money, quantity: count },
  payment_links: { amount: money, status: oneOf(LINK_STATUSES) },
  // A proration's charge may be a credit (negative): the same bound either way.
  subscription_charges: { amount: { kind: 'credit' } },
  signup_entries: { status: oneOf(SIGNUP_ENTRY_STATUSES), entry_json: document },
  outbox: { status: oneOf(EMAIL_STATUSES), body: document },
  events: { data: document },
  webhook_endpoints: { enabled_events: document },
  fault_rules: { rule: document },
  webhook_fault_rules: { rule: document },
};

/** The rule of a column, if the API bounds it by one of its own (else the default for its value's type). */
function ruleOf(table: string, column: string): Rule | undefined {
  return RULES[table]?.[column] ?? (column.endsWith('_at') ? instant : undefined);
}

/** A column's value broken against its rule: the column and the rule's words. */
export interface ValueProblem {
  column: string;
  message: string;
}

/** Why `v` breaks `rule`, and the value to write when it keeps it (an instant in its stored form). */
function check(rule: Rule | undefined, v: unknown): { problem: string } | { value: unknown } {
  if (v === null) return { value: v };
  switch (rule?.kind) {
    case 'money': {
      const r = amount.safeParse(v);
      return r.success ? { value: v } : { problem: r.error.issues[0]!.message };
    }
    case 'credit':
      return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= MAX_AMOUNT ? { value: v } : { problem: `must be a whole number of cents from -${MAX_AMOUNT} to ${MAX_AMOUNT}` };
    case 'instant': {
      // The platform writes END_OF_TIME for a computed instant past year 9999 (never due).
      if (v === END_OF_TIME) return { value: v };
      const r = readInstant(v);
      return r.ok ? { value: r.iso } : { problem: r.message };
    }
    case 'date': {
      const r = readInstant(v, { dateOnly: true });
      return r.ok ? { value: v } : { problem: r.message };
    }
    case 'enum':
      return typeof v === 'string' && rule.values.includes(v) ? { value: v } : { problem: `must be one of ${rule.values.join(', ')}` };
    case 'count':
      return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? { value: v } : { problem: `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}` };
    default: {
      const max = rule?.max ?? DEFAULT_MAX;
      if (typeof v === 'string') return v.length <= max ? { value: v } : { problem: `must be at most ${max} characters (it has ${v.length})` };
      if (typeof v === 'number' && !Number.isSafeInteger(v)) return { problem: `must be a whole number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}` };
      return { value: v };
    }
  }
}

/**
 * The row with its values held to the API's rules (instants in their stored form), or the
 * first column that breaks one, with the rule. Columns the store's own constraints decide
 * (a required column missing) are left to it.
 */
export function checkRowValues(table: string, row: Record<string, unknown>): { row: Record<string, unknown> } | { problem: ValueProblem } {
  let out: Record<string, unknown> | undefined;
  for (const [column, v] of Object.entries(row)) {
    const r = check(ruleOf(table, column), v);
    if ('problem' in r) return { problem: { column, message: r.problem } };
    if (r.value !== v) (out ??= { ...row })[column] = r.value;
  }
  return { row: out ?? row };
}
