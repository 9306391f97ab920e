// Transaction request shapes (sale, capture A/B, add card, refund) and the Transaction
// resource of the spec. One schema per shape; the HTTP routes, the CLI and the OpenAPI
// document all use these.
import { z } from 'zod';
import { amount, booleanLoose, uint64 } from './money.js';
import { customFields, email, requiredText, text, timestamp } from './strings.js';
import { cardBillingAddress, isSaleCountry, looseBillingAddress, saleBillingAddress, shippingAddress, type Address } from './address.js';
import { parseOrThrow } from '../errors.js';
import type { CaptureRequest } from './transaction-transitions.js';

export const SOURCES = ['api', 'forms', 'recurring', 'virtual_terminal'] as const;
/** Sources the platform itself sets (invoice page, wallet) besides the request enum. */
export const ALL_SOURCES = ['recurring', 'virtual_terminal', 'forms', 'wallet', 'api', 'invoice'] as const;
export type TransactionSource = (typeof ALL_SOURCES)[number];

export const STATUSES = [
  'settled', 'voided', 'declined', 'partially_refunded', 'refunded', 'pending', 'authorized', 'captured', 'expired', 'partially_captured',
] as const;
export type TransactionStatus = (typeof STATUSES)[number];

const amountsBase = {
  requested_amount: amount,
  included_tax_amount: amount.optional().describe('included in requested_amount: tax + shipping must not exceed requested_amount'),
  included_shipping_amount: amount.optional().describe('included in requested_amount: tax + shipping must not exceed requested_amount'),
};

const commission = z.strictObject({
  group_id: requiredText(100),
  flat: amount.optional(),
  percentage: uint64.max(100_000, { error: 'must be at most 100000 (100.000%)' }).optional(),
});

const customerRef = z.strictObject({
  customer_id: requiredText(100),
  card_id: text(100).optional(),
  bank_account_id: text(100).optional(),
});

const saleCountryRule = (a: { country?: string }, ctx: z.RefinementCtx) => {
  if (a.country !== undefined && !isSaleCountry(a.country)) {
    ctx.addIssue({ code: 'custom', path: ['country'], message: 'sales are available for US, CA and UK only' });
  }
};

const common = {
  source: z.enum(SOURCES, { error: `must be one of ${SOURCES.join(', ')}` }),
  processor_id: requiredText(100),
  currency: z.literal('USD', { error: 'must be USD (the only supported currency)' }),
  email_address: email,
  email_receipt: z.boolean({ error: 'is required and must be true or false' }),
  shipping_address: shippingAddress.optional(),
  description: text(255).optional(),
  order_id: text(100).optional(),
  po_number: text(100).optional(),
  ip_address: text(45).optional(),
  custom_fields: customFields.optional(),
  save_customer: booleanLoose.optional(),
  commissions: z.array(commission).max(10, { error: 'at most 10 commissions' }).optional(),
};

/** POST /groups/{group_id}/transaction: a sale (or, as an extension, an auth). */
export const saleRequestSchema = z
  .strictObject({
    type: z.enum(['sale', 'auth'], { error: 'must be sale (or auth, an extension)' }),
    ...common,
    amounts: z.strictObject(amountsBase),
    billing_address: saleBillingAddress
      .superRefine(saleCountryRule)
      .optional()
      .describe('required when paying with a token; country US, CA or UK (GB accepted); a US postal_code has exactly 5 characters'),
    payment_details: z.strictObject({
      token: text(100).optional().describe('a payment token (POST /api/v1/tokens); either token or customer, not both'),
      card_details: z.strictObject({ dynamic_descriptor: text(25).optional() }).optional(),
      customer: customerRef.optional().describe('a stored payment method: exactly one of card_id or bank_account_id; either token or customer, not both'),
    }),
  })
  // Cross-field rules run even when other fields failed (`when`), so one 400 lists every
  // problem; they read the input defensively because it may not have parsed.
  .superRefine((input, ctx) => {
    const b = input as Partial<typeof input>;
    const pd = (isRecord(b.payment_details) ? b.payment_details : {}) as Partial<NonNullable<typeof input.payment_details>>;
    if (isRecord(pd.customer)) {
      if (pd.token) ctx.addIssue({ code: 'custom', path: ['payment_details', 'token'], message: 'send either a token or a stored customer payment method, not both' });
      const refs = [pd.customer.card_id, pd.customer.bank_account_id].filter(Boolean).length;
      if (refs !== 1) ctx.addIssue({ code: 'custom', path: ['payment_details', 'customer'], message: 'requires exactly one of card_id or bank_account_id' });
    } else {
      if (!pd.token) ctx.addIssue({ code: 'custom', path: ['payment_details', 'token'], message: 'is required (or payment_details.customer)' });
      if (b.billing_address === undefined) ctx.addIssue({ code: 'custom', path: ['billing_address'], message: 'is required when paying with a token' });
    }
    const a = (isRecord(b.amounts) ? b.amounts : {}) as Record<string, unknown>;
    const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);
    if (typeof a.requested_amount === 'number' && n(a.included_tax_amount) + n(a.included_shipping_amount) > a.requested_amount) {
      ctx.addIssue({ code: 'custom', path: ['amounts'], message: 'included tax and shipping cannot exceed requested_amount' });
    }
  }, { when: (payload) => isRecord(payload.value) })
  .meta({
    id: 'SaleRequest',
    description:
      'Cross-field rules: payment_details has either token (then billing_address is required) or customer (with exactly one of card_id or bank_account_id); ' +
      'amounts.included_tax_amount + included_shipping_amount ≤ requested_amount; type auth only for groups on the Flat pricing model; commissions only with a transaction-level processor.',
  });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export type SaleRequest = z.output<typeof saleRequestSchema>;

/** Capture variant A: the full auth body with captured_amount. */
export const captureASchema = z.strictObject({
  type: z.literal('auth', { error: 'must be auth' }),
  ...common,
  amounts: z.strictObject({
    ...amountsBase,
    authorized_amount: amount.optional(),
    captured_amount: amount.optional(),
  }),
  billing_address: looseBillingAddress,
  payment_details: z.strictObject({ token: requiredText(100) }),
}).meta({ id: 'CaptureAuthRequest', description: 'Capture variant A: the auth body with amounts.captured_amount ≤ the authorized amount (captured or partially_captured)' });
export type CaptureA = z.output<typeof captureASchema>;

/** Capture variant B: only the amount, which must equal the authorized amount. */
export const captureBSchema = z
  .strictObject({ amount: amount.describe('must equal the authorized amount') })
  .meta({ id: 'CaptureAmountRequest', description: 'Capture variant B: only the amount, equal to the authorized amount' });
export type CaptureB = z.output<typeof captureBSchema>;

export const captureRequestSchema = z.union([captureASchema, captureBSchema]).meta({ id: 'CaptureRequest', description: 'Told apart by shape: a body with only `amount` is variant B' });

/** Told apart by shape: a body with only `amount` is variant B. */
export function captureSchemaFor(body: unknown): typeof captureASchema | typeof captureBSchema {
  return typeof body === 'object' && body !== null && 'amount' in body && !('amounts' in body) ? captureBSchema : captureASchema;
}

/** A capture body (either variant) as the typed capture request. */
export function captureRequestFrom(body: unknown): CaptureRequest {
  const schema = captureSchemaFor(body);
  if (schema === captureBSchema) return { kind: 'exact', amount: parseOrThrow(captureBSchema, body).amount, path: 'amount' };
  const a = parseOrThrow(captureASchema, body);
  const captured = a.amounts.captured_amount;
  return captured !== undefined
    ? { kind: 'up_to', amount: captured, processor_id: a.processor_id, path: 'amounts.captured_amount' }
    : { kind: 'up_to', amount: a.amounts.requested_amount, processor_id: a.processor_id, path: 'amounts.requested_amount' };
}

export const addCardSchema = z.strictObject({
  token: requiredText(100),
  billing_address: cardBillingAddress,
}).meta({ id: 'AddCardRequest' });
export type AddCard = z.output<typeof addCardSchema>;

export const refundSchema = z
  .strictObject({ amount: amount.min(1, { error: 'must be at least 1 cent' }).optional().describe('cents, at most the amount not yet refunded; default: all of it') })
  .meta({ id: 'RefundRequest' });
export type RefundRequest = z.output<typeof refundSchema>;

const addressOut = z.object({
  first_name: z.string().optional(), last_name: z.string().optional(), company: z.string().optional(),
  line_1: z.string().optional(), line_2: z.string().optional(), city: z.string().optional(),
  subdivision: z.string().optional(), postal_code: z.string().optional(), country: z.string().optional(),
  email: z.string().optional(), phone: z.string().optional(),
});

export const transactionSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  settlement_batch_ids: z.array(z.string()),
  gateway: z.string(),
  processor_id: z.string(),
  processor_name: z.string(),
  processor_type: z.string(),
  transaction_type: z.enum(['sale', 'auth']),
  payment_method: z.string(),
  customer_id: z.string().optional(),
  payment_details: z.object({
    card: z
      .object({
        brand: z.string(), card_type: z.string(), first_six: z.string(), last_four: z.string(),
        customer_name: z.string(), expiration_date: z.string().describe('YY/MM'), avs: z.string(), cvv: z.string(),
        issued_country: z.string(), dynamic_descriptor: z.string().optional(),
      })
      .optional(),
    bank_account: z.object({ routing_number: z.string(), last_four: z.string(), account_type: z.string(), holder_name: z.string() }).optional(),
  }),
  amounts: z.object({
    requested_amount: z.number(), authorized_amount: z.number(), captured_amount: z.number(), refunded_amount: z.number(),
    included_tax_amount: z.number().optional(), included_shipping_amount: z.number().optional(),
  }),
  currency: z.string(),
  description: z.string(),
  source: z.string(),
  order_id: z.string(),
  po_number: z.string(),
  email_receipt: z.boolean(),
  email_address: z.string(),
  user_id: z.string(),
  username: z.string(),
  billing_address: addressOut,
  shipping_address: addressOut.optional(),
  form_external_id: z.string(),
  form_entry_id: z.string(),
  subscription_id: z.string(),
  plan_id: z.string(),
  invoice_id: z.string(),
  invoice_number: z.string(),
  payment_link_id: z.string(),
  custom_fields: z.record(z.string(), z.unknown()),
  commissions: z.array(z.object({ group_id: z.string(), flat: z.number().optional(), percentage: z.number().optional() })),
  response_code: z.string(),
  response_text: z.string(),
  status: z.enum(STATUSES),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Transaction' });
export type Transaction = z.output<typeof transactionSchema>;

/** A commission as a transaction keeps it. */
export type Commission = Transaction['commissions'][number];

/**
 * A transaction as the platform keeps it: the entity repositories take and return
 * (addresses, custom fields and commissions as objects, flags as booleans; times as
 * RFC 3339 UTC strings with milliseconds, the form they are compared, ordered and
 * answered in). `toApiTransaction` turns it into the API's Transaction.
 */
export interface TransactionEntity {
  id: string;
  group_id: string;
  linked_account_id: string | null;
  processor_id: string;
  transaction_type: 'sale' | 'auth';
  /** 'card' or 'ach'. */
  payment_method: string;
  /** 'card', 'customer_card', 'ach' or 'customer_ach': how the method was given. */
  method_detail: string;
  customer_id: string | null;
  card_id: string | null;
  bank_account_id: string | null;
  brand: string | null;
  /** The card type; for a bank account its account type. */
  card_type: string | null;
  /** The card's first six; for a bank account its routing number. */
  first_six: string | null;
  last_four: string | null;
  customer_name: string;
  /** YY/MM. */
  expiration_date: string | null;
  avs: string | null;
  cvv: string | null;
  issued_country: string | null;
  dynamic_descriptor: string | null;
  requested_amount: number;
  authorized_amount: number;
  captured_amount: number;
  refunded_amount: number;
  included_tax_amount: number | null;
  included_shipping_amount: number | null;
  currency: string;
  description: string;
  source: string;
  order_id: string;
  po_number: string;
  ip_address: string;
  email_receipt: boolean;
  email_address: string;
  user_id: string;
  username: string;
  billing_address: Address;
  shipping_address: Address | null;
  form_id: string | null;
  form_external_id: string;
  form_entry_id: string;
  subscription_id: string | null;
  plan_id: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  invoice_external_id: string | null;
  payment_link_id: string | null;
  destination_group_id: string | null;
  custom_fields: Record<string, unknown> | null;
  commissions: Commission[] | null;
  response_code: string;
  response_text: string;
  status: TransactionStatus;
  settlement_batch_id: string | null;
  created_at: string;
  updated_at: string;
}
