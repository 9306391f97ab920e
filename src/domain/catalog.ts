// Products, invoices and partners: request/response schemas and the pure invoice rules
// (amount, status, line reconciliation, numbering). Spec: "Product", "Invoice",
// "Partner", endpoints 7-12, "Invoice status"; DESIGN.md "Invoices".
import { z } from 'zod';
import { validationError, type FieldProblem } from '../errors.js';
import { looseBillingAddress } from './address.js';
import { MAX_AMOUNT, amount as amountCents, amountLoose, storedAmount, uint64 } from './money.js';
import { requiredText, text, timestamp, uuid } from './strings.js';
import { pagingQuery } from './paging.js';
import { dateSchema, readInstant } from './time.js';

// ---------------------------------------------------------------- bounds

export const PRODUCT_NAME_MAX = 100;
export const PRODUCT_DESCRIPTION_MAX = 255;
/** Lines per invoice (the spec shows no limit; arrays are bounded, DESIGN.md). */
export const INVOICE_LINES_MAX = 100;
export const EXTERNAL_ID_MAX = 255;
export const PROCESSOR_ID_MAX = 100;
export const UNITS_OF_MEASURE = ['pc'] as const;
export type UnitOfMeasure = (typeof UNITS_OF_MEASURE)[number];

// ---------------------------------------------------------------- shared pieces

const productName = requiredText(PRODUCT_NAME_MAX);
// The spec's listing says uint64 for description, but its description and example are text.
const productDescription = requiredText(PRODUCT_DESCRIPTION_MAX);
const unitOfMeasure = z.enum(UNITS_OF_MEASURE, { error: 'must be "pc" (the only supported unit of measure)' });
const quantity = uint64.min(1, { error: 'must be at least 1' });
/** A UUID reference, with a clear message when it is missing. */
const ref = z.string({ error: 'is required and must be a UUID' }).pipe(uuid);

/** `YYYY-MM-DD` that names a real calendar day, years 1970–9999 (2026-02-30 is refused): src/domain/time.ts. */
export const dueDate = dateSchema.meta({ format: 'date', description: 'the due day, YYYY-MM-DD (years 1970 to 9999); the invoice is past_due from the next midnight UTC' });

export function isCalendarDate(s: string): boolean {
  return readInstant(s, { dateOnly: true }).ok;
}

/** Tax included in a price cannot exceed the price. */
function taxWithinAmount(v: { amount?: number; included_tax_amount?: number | undefined }, ctx: z.RefinementCtx) {
  if (v.amount !== undefined && v.included_tax_amount !== undefined && v.included_tax_amount > v.amount) {
    ctx.addIssue({ code: 'custom', path: ['included_tax_amount'], message: 'must not be greater than amount' });
  }
}

// ---------------------------------------------------------------- product requests

const productFields = {
  name: productName,
  description: productDescription,
  amount: amountCents,
  included_tax_amount: amountCents.optional().describe('included in amount, so at most amount; missing means 0'),
  unit_of_measure: unitOfMeasure,
};

/** PUT /products/{id} (spec 8). A missing included_tax_amount means 0. */
export const updateProductSchema = z.strictObject(productFields).superRefine(taxWithinAmount).meta({ id: 'UpdateProductRequest' });
/** POST /products (extension): the same rules as update. */
export const createProductSchema = z.strictObject(productFields).superRefine(taxWithinAmount).meta({ id: 'CreateProductRequest' });

export type UpdateProductInput = z.output<typeof updateProductSchema>;
export type CreateProductInput = z.output<typeof createProductSchema>;

// ---------------------------------------------------------------- invoice requests

/**
 * A line of an invoice update (spec 9). name … unit_of_measure are copies of the
 * product's values (amounts as number or digit string); they cannot change the line,
 * and reconcileInvoiceLines refuses copies that differ.
 */
const copied = 'a copy of the product\'s value (of the attached line\'s, with id): must equal it';
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

// ---------------------------------------------------------------- partner requests

/**
 * POST /partners (extension). Address bounds are the billing-address Limits with the
 * loose postal code (partners live in any country); the spec says names and line_2 may
 * be empty, so they default to "" and company, e-mail and the address are required.
 */
export const createPartnerSchema = looseBillingAddress.extend({
  company: requiredText(100),
  first_name: text(64).default(''),
  last_name: text(64).default(''),
  line_2: text(32).default(''),
}).meta({ id: 'CreatePartnerRequest' });
export type CreatePartnerInput = z.output<typeof createPartnerSchema>;

/** GET /partners query (spec 12): limit 1..1000 (default 50), offset ≥ 0 (default 0), name filter. */
export const partnerListQuerySchema = z.strictObject({
  ...pagingQuery,
  // An empty name filters nothing.
  name: text(100)
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim())),
});
export type PartnerListQuery = z.output<typeof partnerListQuerySchema>;

// ---------------------------------------------------------------- responses

export const productSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  name: z.string(),
  description: z.string(),
  unit_of_measure: unitOfMeasure,
  included_tax_amount: storedAmount,
  amount: storedAmount,
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Product' });
export type Product = z.output<typeof productSchema>;

export const partnerSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  company: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  line_1: z.string(),
  line_2: z.string(),
  city: z.string(),
  country: z.string(),
  subdivision: z.string(),
  postal_code: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Partner' });
export type Partner = z.output<typeof partnerSchema>;

/** Partner list result: `{data: {items, total_count}}`. */
export const partnerListSchema = z
  .object({
    data: z.object({ items: z.array(partnerSchema), total_count: z.number().int() }),
  })
  .meta({ id: 'PartnerList' });
export type PartnerList = z.output<typeof partnerListSchema>;

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

// ---------------------------------------------------------------- lines

/** The product values an invoice line copies. */
export type ProductValues = Pick<Product, 'id' | 'name' | 'description' | 'amount' | 'included_tax_amount' | 'unit_of_measure'>;

/** A line to attach: the product's values at attach time plus a quantity. */
export interface NewInvoiceLine {
  product_id: string;
  name: string;
  description: string;
  amount: number;
  included_tax_amount: number;
  unit_of_measure: UnitOfMeasure;
  quantity: number;
}

/** An attached line the update keeps; quantity is the requested one (changed tells whether it differs). */
export interface KeptInvoiceLine {
  line: InvoiceLine;
  quantity: number;
  changed: boolean;
}

export interface LineReconciliation {
  keep: KeptInvoiceLine[];
  add: NewInvoiceLine[];
  /** Attached lines the request did not send. */
  detach: InvoiceLine[];
  /** The resulting lines in request order (kept lines carry their id). */
  lines: Array<NewInvoiceLine & { id?: string }>;
  /** The new invoice amount. */
  amount: number;
}

const COPIED_FIELDS = ['name', 'description', 'amount', 'included_tax_amount', 'unit_of_measure'] as const;

function copyOf(product: ProductValues): Omit<NewInvoiceLine, 'quantity'> {
  return {
    product_id: product.id,
    name: product.name,
    description: product.description,
    amount: product.amount,
    included_tax_amount: product.included_tax_amount ?? 0,
    unit_of_measure: product.unit_of_measure,
  };
}

/** The invoice total is an amount the platform makes: held to MAX_AMOUNT (DESIGN.md "Bounds"). */
function checkTotal(lines: ReadonlyArray<{ amount: number; quantity: number }>, problems: FieldProblem[]): number {
  const total = invoiceTotal(lines);
  if (total > BigInt(MAX_AMOUNT)) {
    problems.push({ path: 'products', message: `the invoice total (Σ amount × quantity = ${total} cents) must be at most ${MAX_AMOUNT} cents` });
    return 0;
  }
  return Number(total);
}

/** Lines of a new invoice (create extension): each product_id must be a product of the group. */
export function buildInvoiceLines(
  requested: ReadonlyArray<CreateInvoiceLineInput>,
  productsById: ReadonlyMap<string, ProductValues>,
): { lines: NewInvoiceLine[]; amount: number } {
  const problems: FieldProblem[] = [];
  const lines: NewInvoiceLine[] = [];
  requested.forEach((r, i) => {
    const product = productsById.get(r.product_id);
    if (!product) problems.push({ path: `products.${i}.product_id`, message: 'must be an existing product of this group' });
    else lines.push({ ...copyOf(product), quantity: r.quantity });
  });
  const amount = problems.length ? 0 : checkTotal(lines, problems);
  if (problems.length) throw validationError(problems);
  return { lines, amount };
}

/**
 * Update Invoice (spec 9) line rules:
 * - a line with `id` keeps that attached line: its copied product values stay as they
 *   were attached (even if the product changed since); its quantity becomes the
 *   requested one. The id must be a line of this invoice, listed once
 *   (else products.N.id) and its product_id must be that line's (else products.N.product_id);
 * - a line without `id` attaches a new line: product_id must be a product of the group
 *   (else products.N.product_id); the values are copied from the product;
 * - attached lines the request does not send are detached.
 * Decision: the copies (name, description, amount, included_tax_amount,
 * unit_of_measure) "cannot be changed by an invoice update". A copy that differs from
 * the kept line (or, for a new line, the product) is refused with a 400 naming the
 * field, rather than silently ignored, so a client that believes it changed a price
 * learns that it did not. Every problem is reported at once.
 */
export function reconcileInvoiceLines(
  existingLines: ReadonlyArray<InvoiceLine>,
  requestedLines: ReadonlyArray<UpdateInvoiceLineInput>,
  productsById: ReadonlyMap<string, ProductValues>,
): LineReconciliation {
  const problems: FieldProblem[] = [];
  const existingById = new Map(existingLines.map((l) => [l.id, l]));
  const seen = new Map<string, number>();
  const keep: KeptInvoiceLine[] = [];
  const add: NewInvoiceLine[] = [];
  const lines: LineReconciliation['lines'] = [];

  requestedLines.forEach((r, i) => {
    const at = (field: string) => `products.${i}.${field}`;
    let source: Omit<NewInvoiceLine, 'quantity'> | undefined;
    let kept: InvoiceLine | undefined;

    if (r.id !== undefined) {
      kept = existingById.get(r.id);
      const first = seen.get(r.id);
      if (!kept) {
        problems.push({ path: at('id'), message: 'must be the id of a product line of this invoice (omit it to add a new line)' });
        return;
      }
      if (first !== undefined) {
        problems.push({ path: at('id'), message: `line ${r.id} is already listed at products.${first}` });
        return;
      }
      seen.set(r.id, i);
      if (r.product_id !== kept.product_id) {
        problems.push({ path: at('product_id'), message: `must be ${kept.product_id}, the product of line ${r.id}` });
        return;
      }
      source = kept;
    } else {
      const product = productsById.get(r.product_id);
      if (!product) {
        problems.push({ path: at('product_id'), message: 'must be an existing product of this group' });
        return;
      }
      source = copyOf(product);
    }

    for (const field of COPIED_FIELDS) {
      if (r[field] !== source[field]) {
        const what = kept ? 'the attached line' : 'the product';
        problems.push({
          path: at(field),
          message: `must equal ${what}'s value ${JSON.stringify(source[field])}; product values cannot be changed by an invoice update`,
        });
      }
    }

    const values: NewInvoiceLine = { ...pickCopies(source), quantity: r.quantity };
    if (kept) {
      keep.push({ line: kept, quantity: r.quantity, changed: r.quantity !== kept.quantity });
      lines.push({ id: kept.id, ...values });
    } else {
      add.push(values);
      lines.push(values);
    }
  });

  const amount = checkTotal(lines, problems);
  if (problems.length) throw validationError(problems);
  const detach = existingLines.filter((l) => !seen.has(l.id));
  return { keep, add, detach, lines, amount };
}

function pickCopies(s: Omit<NewInvoiceLine, 'quantity'>): Omit<NewInvoiceLine, 'quantity'> {
  return {
    product_id: s.product_id,
    name: s.name,
    description: s.description,
    amount: s.amount,
    included_tax_amount: s.included_tax_amount,
    unit_of_measure: s.unit_of_measure,
  };
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

// ---------------------------------------------------------------- list queries and results (extensions)

/** GET /products query (extension): the same paging as partners; name filters case-insensitively. */
export const productListQuerySchema = partnerListQuerySchema;
export type ProductListQuery = z.output<typeof productListQuerySchema>;

/** GET /invoices query (extension): paging, an effective status (past_due included) and a partner. */
export const invoiceListQuerySchema = z.strictObject({
  ...pagingQuery,
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(', ')}` }).optional(),
  partner_id: uuid.optional(),
});
export type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.object({ items: z.array(item), total_count: z.number().int() }) });

export const productListSchema = listOf(productSchema).meta({ id: 'ProductList' });
export type ProductList = z.output<typeof productListSchema>;
export const invoiceListSchema = listOf(invoiceSchema).meta({ id: 'InvoiceList' });
export type InvoiceList = z.output<typeof invoiceListSchema>;

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
