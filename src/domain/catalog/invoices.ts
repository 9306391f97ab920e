// Invoices: the request shapes (create, update and their lines, pay), the API object,
// the list, and the pure rules of an invoice's amount, status, due date, number and
// slug. The line reconciliation of an update is invoice-lines.ts. Spec: "Invoice",
// endpoints 9-10, "Invoice status"; docs/decisions.md#invoices.
import { z } from 'zod';
import { MAX_AMOUNT, amountLoose, storedAmount, uint64 } from '../money.js';
import { requiredText, text, timestamp, uuid } from '../strings.js';
import { pagingQuery } from '../paging.js';
import { dueDate, EXTERNAL_ID_MAX, INVOICE_LINES_MAX, isCalendarDate, listOf, PROCESSOR_ID_MAX, productDescription, productName, quantity, ref, unitOfMeasure } from './fields.js';
import { partnerSchema } from './partners.js';

// ---------------------------------------------------------------- invoice requests

/**
 * A line of an invoice update (spec 9). name … unit_of_measure are copies of the
 * product's values (amounts as number or digit string); they cannot change the line,
 * and reconcileInvoiceLines refuses copies that differ.
 */
const copied = 'a copy of the product\'s value (of the attached line\'s, with id): must equal it';
/** An invoice's public page (the customer's link), under the address the server serves pages at. */
export const invoicePageUrl = (publicUrl: string, slug: string): string => `${publicUrl}/invoices/${slug}`;

export const updateInvoiceLineSchema = z
  .strictObject({
    id: ref.optional().describe('an attached line to keep (its quantity may change); without id the product is attached anew'),
    product_id: ref,
    name: productName.describe(copied),
    description: productDescription.describe(copied),
    amount: amountLoose.describe(copied),
    included_tax_amount: amountLoose.describe(copied),
    unit_of_measure: unitOfMeasure.describe(copied),
    quantity,
    created_at: timestamp.optional().describe('read-only: accepted so that a line read from an invoice can be sent back; ignored'),
    updated_at: timestamp.optional().describe('read-only: accepted so that a line read from an invoice can be sent back; ignored'),
  })
  .meta({ id: 'UpdateInvoiceLine' });

const invoiceLines = <T extends z.ZodType>(line: T) =>
  z
    .array(line, { error: 'is required and must be an array of product lines' })
    .min(1, { error: 'must have at least one product line' })
    .max(INVOICE_LINES_MAX, { error: `must have at most ${INVOICE_LINES_MAX} product lines` });

const invoiceCommonFields = {
  note: text().optional(),
  external_id: text(EXTERNAL_ID_MAX).optional(),
  due_date: dueDate,
  processor_id: requiredText(PROCESSOR_ID_MAX),
  card_enabled: z.boolean({ error: 'is required and must be true or false' }),
  ach_enabled: z.boolean({ error: 'is required and must be true or false' }),
};

/** PUT /invoices/{id} (spec 9). */
export const updateInvoiceSchema = z
  .strictObject({
    ...invoiceCommonFields,
    products: invoiceLines(updateInvoiceLineSchema).describe('attached lines not sent are detached'),
  })
  .meta({ id: 'UpdateInvoiceRequest' });

export const createInvoiceLineSchema = z.strictObject({ product_id: ref, quantity }).meta({ id: 'CreateInvoiceLine' });

/** POST /invoices (extension): lines name a product and a quantity; the copies are taken from the product. */
export const createInvoiceSchema = z.strictObject({
  partner_id: ref,
  ...invoiceCommonFields,
  send_email: z.boolean({ error: 'must be true or false' }).optional(),
  products: invoiceLines(createInvoiceLineSchema),
}).meta({ id: 'CreateInvoiceRequest' });

export type UpdateInvoiceLineInput = z.output<typeof updateInvoiceLineSchema>;
export type UpdateInvoiceInput = z.output<typeof updateInvoiceSchema>;
export type CreateInvoiceLineInput = z.output<typeof createInvoiceLineSchema>;
export type CreateInvoiceInput = z.output<typeof createInvoiceSchema>;

export const invoiceLineSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  name: z.string(),
  description: z.string(),
  amount: storedAmount,
  included_tax_amount: storedAmount,
  unit_of_measure: unitOfMeasure,
  quantity: uint64,
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'InvoiceLine' });
export type InvoiceLine = z.output<typeof invoiceLineSchema>;

/**
 * pending, past_due and archived are the spec's values; paid (an invoice paid on its public
 * page) is this platform's, since the spec leaves "moves to a paid state" open. past_due is
 * never stored: it is a pending invoice read after its due day (invoiceStatus).
 */
export const INVOICE_STATUSES = ['pending', 'past_due', 'paid', 'archived'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const invoiceSchema = z.object({
  id: z.string(),
  invoice_number: z.string().describe('INV-YYYY-NNNNNN'),
  group_id: z.string(),
  slug: z.string().describe('random URL-safe identifier of the public invoice page'),
  invoice_number_numeric: z.string(),
  year: z.string(),
  note: z.string().describe('empty when not set'),
  external_id: z.string().describe('empty when not set'),
  due_date: timestamp.describe('midnight UTC of the due day; past_due from the next midnight'),
  send_email: z.boolean(),
  processor_id: z.string(),
  card_enabled: z.boolean(),
  ach_enabled: z.boolean(),
  partner: partnerSchema,
  products: z.array(invoiceLineSchema),
  amount: storedAmount.describe(`sum of amount × quantity over the lines, in cents; at most ${MAX_AMOUNT}`),
  status: z.enum(INVOICE_STATUSES),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Invoice' });
export type Invoice = z.output<typeof invoiceSchema>;

/** GET /invoices query (extension): paging, an effective status (past_due included) and a partner. */
export const invoiceListQuerySchema = z.strictObject({
  ...pagingQuery,
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(', ')}` }).optional(),
  partner_id: uuid.optional(),
});
export type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;

export const invoiceListSchema = listOf(invoiceSchema).meta({ id: 'InvoiceList' });
export type InvoiceList = z.output<typeof invoiceListSchema>;

// ---------------------------------------------------------------- amount

/**
 * Invoice total: Σ amount × quantity, exact (BigInt: a quantity of 2^53-1 times an
 * amount is far beyond a double). included_tax_amount is already inside amount.
 */
export function invoiceTotal(lines: ReadonlyArray<{ amount: number; quantity: number }>): bigint {
  return lines.reduce((sum, l) => sum + BigInt(l.amount) * BigInt(l.quantity), 0n);
}

/** Invoice total as a number (lines of a stored invoice, whose total was checked on the way in). */
export function invoiceAmount(lines: ReadonlyArray<{ amount: number; quantity: number }>): number {
  return Number(invoiceTotal(lines));
}

/** Tax included in the total: Σ included_tax_amount × quantity (for display). */
export function invoiceIncludedTax(lines: ReadonlyArray<{ included_tax_amount: number; quantity: number }>): number {
  return Number(lines.reduce((sum, l) => sum + BigInt(l.included_tax_amount) * BigInt(l.quantity), 0n));
}

// ---------------------------------------------------------------- status and due date

/** The response form of a due date: midnight UTC of that day. */
export function dueDateToTimestamp(date: string): string {
  return `${dueDayOf(date)}T00:00:00.000Z`;
}

/** `YYYY-MM-DD` of a due date given as a date or as a timestamp. */
export function dueDayOf(dateOrTimestamp: string): string {
  const day = dateOrTimestamp.slice(0, 10);
  if (!isCalendarDate(day)) throw new Error(`"${dateOrTimestamp}" is not a due date`);
  return day;
}

/**
 * The moment a due date has passed: the due day D runs to its end, so an invoice is
 * past due from D+1 00:00:00.000 UTC. Platform time is UTC.
 */
export function pastDueFrom(dueDateOrTimestamp: string): string {
  const start = Date.parse(`${dueDayOf(dueDateOrTimestamp)}T00:00:00.000Z`);
  return new Date(start + 86_400_000).toISOString();
}

export function isPastDue(dueDateOrTimestamp: string, nowIso: string): boolean {
  return Date.parse(nowIso) >= Date.parse(pastDueFrom(dueDateOrTimestamp));
}

/**
 * The same rule for a store query: a due day D is past at `nowIso` exactly when
 * D < the UTC day of `nowIso` (both `YYYY-MM-DD`, so they compare as text).
 */
export function pastDueCutoffDay(nowIso: string): string {
  return new Date(Date.parse(nowIso)).toISOString().slice(0, 10);
}

/** Whether a payment can be taken: the stored status is pending (past_due included). */
export function isPayable(stored: InvoiceStatus): boolean {
  return stored === 'pending' || stored === 'past_due';
}

/**
 * Status as seen at `nowIso`. archived stays archived. Otherwise the due date decides:
 * past_due once the due day has ended, else pending — so an update that moves the due
 * date into the future makes a past_due invoice pending again. paid stays paid.
 */
export function invoiceStatus(stored: InvoiceStatus, dueDateOrTimestamp: string, nowIso: string): InvoiceStatus {
  if (stored === 'archived' || stored === 'paid') return stored;
  return isPastDue(dueDateOrTimestamp, nowIso) ? 'past_due' : 'pending';
}

// ---------------------------------------------------------------- numbering and slug

/**
 * Numbering: invoices are numbered per group and calendar year (UTC, platform clock)
 * from 1 upward; the store hands out n = last + 1 inside the creating transaction.
 * invoice_number is `INV-<year>-<n, zero-padded to 6>` (wider past 999999),
 * invoice_number_numeric is n in decimal without padding, year is the 4-digit year.
 */
export function formatInvoiceNumber(year: number, n: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new Error(`invalid invoice year ${year}`);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`invalid invoice sequence number ${n}`);
  return `INV-${year}-${String(n).padStart(6, '0')}`;
}

export function invoiceNumbering(year: number, n: number): { invoice_number: string; invoice_number_numeric: string; year: string } {
  return { invoice_number: formatInvoiceNumber(year, n), invoice_number_numeric: String(n), year: String(year) };
}

/** Bytes of randomness in a slug: 128 bits, so public invoice URLs cannot be guessed. */
export const SLUG_BYTES = 16;

/**
 * slug: the unguessable public identifier of an invoice (its public page URL), the
 * base64url form of SLUG_BYTES random bytes (22 characters of A-Z a-z 0-9 - _).
 * The caller passes the bytes (crypto.randomBytes(SLUG_BYTES)) so this stays pure.
 */
export function invoiceSlug(randomBytes: Uint8Array): string {
  if (randomBytes.length < SLUG_BYTES) throw new Error(`a slug needs at least ${SLUG_BYTES} random bytes`);
  return Buffer.from(randomBytes.subarray(0, SLUG_BYTES)).toString('base64url');
}

// ---------------------------------------------------------------- paying an invoice (public page)

/** POST /invoices/{slug}/pay (extension, no key): a card or bank-account token from POST /tokens. */
export const payInvoiceSchema = z.strictObject({
  token: requiredText(100).describe('a card or bank-account token from POST /api/v1/tokens'),
}).meta({ id: 'PayInvoiceRequest' });
export type PayInvoiceInput = z.output<typeof payInvoiceSchema>;

/** The pay result: the invoice's status afterwards and the transaction's outcome. */
export const invoicePaymentSchema = z.object({
  invoice_id: z.string(),
  invoice_number: z.string(),
  status: z.enum(INVOICE_STATUSES).describe('paid after an approved payment; unchanged after a decline'),
  amount: storedAmount,
  payment_method: z.enum(['card', 'ach']),
  transaction_id: z.string(),
  transaction_status: z.string().describe('pending for an approved sale, declined otherwise'),
  response_code: z.string(),
  response_text: z.string(),
}).meta({ id: 'InvoicePayment' });
export type InvoicePayment = z.output<typeof invoicePaymentSchema>;
