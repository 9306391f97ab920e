// Payment links: request and response shapes and the pure status rule. Spec: "Pay
// Payment Link" (14), "Payment link" states, Authentication 2-6; docs/decisions.md#payment-links.
// A link has a fixed amount, or none (an open-amount link: the payer names the amount
// in the pay body). Stored statuses are available, paid and deactivated; `expired` is
// derived from expires_at and the platform clock.
import { z } from 'zod';
import { isSaleCountry, payLinkBillingAddress } from './address.js';
import { amount } from './money.js';
import { requiredText, timestamp } from './strings.js';
import { pagingQuery } from './paging.js';
import { instantSchema } from './time.js';

export const LINK_STATUSES = ['available', 'paid', 'deactivated', 'expired'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const DESCRIPTION_MAX = 255;
export const REDIRECT_URL_MAX = 2000;

/** The status a payer and merchant see: an available link past its expires_at is expired. */
export function effectiveStatus(link: { status: string; expires_at: string | null }, nowIso: string): LinkStatus {
  if (link.status === 'available' && link.expires_at !== null && link.expires_at <= nowIso) return 'expired';
  return link.status as LinkStatus;
}

const positiveAmount = amount.min(1, { error: 'must be at least 1 cent' });

const redirectUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
  .max(REDIRECT_URL_MAX, { error: `must be at most ${REDIRECT_URL_MAX} characters` });

// ---------------------------------------------------------------- create (extension)

/** POST /groups/{group_id}/payment-links: exactly one of `amount` or `open_amount: true`. */
export const createPaymentLinkSchema = z
  .strictObject({
    processor_id: requiredText(100).optional().describe('defaults to the group\'s first processor'),
    amount: positiveAmount.optional().describe('cents; required unless open_amount is true, and absent when it is'),
    open_amount: z.boolean({ error: 'must be true or false' }).optional().describe('the payer names the amount when paying; then amount must be absent'),
    description: requiredText(DESCRIPTION_MAX),
    redirect_url: redirectUrl.optional().describe('where the payer goes after paying; default: the link\'s own pay page'),
    card_enabled: z.boolean({ error: 'must be true or false' }).optional().describe('default true; card_enabled false requires ach_enabled true'),
    ach_enabled: z.boolean({ error: 'must be true or false' }).optional().describe('default false'),
    expires_at: instantSchema().optional().describe('after this platform time the link is expired; RFC 3339 (years 1970 to 9999)'),
  })
  .superRefine((b, ctx) => {
    if (b.open_amount === true && b.amount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be absent when open_amount is true' });
    } else if (b.open_amount !== true && b.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required (or open_amount: true for an open-amount link)' });
    }
    if (b.card_enabled === false && b.ach_enabled !== true) {
      ctx.addIssue({ code: 'custom', path: ['card_enabled'], message: 'a link must accept cards or ACH (set ach_enabled: true)' });
    }
  })
  .meta({
    id: 'CreatePaymentLinkRequest',
    description: 'Cross-field rules: exactly one of amount or open_amount: true; a link accepts cards or ACH (card_enabled false requires ach_enabled true).',
  });
export type CreatePaymentLink = z.output<typeof createPaymentLinkSchema>;

/** GET /groups/{group_id}/payment-links query (extension). */
export const paymentLinkListQuerySchema = z.strictObject({
  status: z.enum(LINK_STATUSES, { error: `must be one of ${LINK_STATUSES.join(', ')}` }).optional(),
  ...pagingQuery,
});
export type PaymentLinkListQuery = z.output<typeof paymentLinkListQuerySchema>;

// ---------------------------------------------------------------- pay (spec 14)

const payBillingAddress = payLinkBillingAddress.superRefine((a, ctx) => {
  // A malformed country already has its own problem; name the rule only for a real code.
  if (a.country?.length === 2 && !isSaleCountry(a.country)) ctx.addIssue({ code: 'custom', path: ['country'], message: 'sales are available for US, CA and UK only' });
});

const payFields = {
  token: requiredText(100).describe('payment token from POST /api/v1/tokens'),
  billing_address: payBillingAddress,
};

/** Pay a fixed-amount link: `amount` is not a field (the link sets it). */
export const payPaymentLinkSchema = z.strictObject(payFields);
/** Pay an open-amount link: the payer names the amount. */
export const payOpenPaymentLinkSchema = z.strictObject({ ...payFields, amount: positiveAmount });
/** For the API document: `amount` only on open-amount links. */
export const payPaymentLinkRequestSchema = z.strictObject({
  ...payFields,
  amount: positiveAmount.optional().describe('cents; required for an open-amount link, refused on a fixed-amount link'),
}).meta({ id: 'PayPaymentLinkRequest', description: 'billing_address.country must be US, CA or UK (GB accepted); a US postal_code has exactly 5 characters.' });
export type PayPaymentLink = z.output<typeof payOpenPaymentLinkSchema> | z.output<typeof payPaymentLinkSchema>;

export function paySchemaFor(link: { amount: number | null }): typeof payPaymentLinkSchema | typeof payOpenPaymentLinkSchema {
  return link.amount === null ? payOpenPaymentLinkSchema : payPaymentLinkSchema;
}

// ---------------------------------------------------------------- responses

/** The merchant's view (extension endpoints, CLI). */
export const paymentLinkSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  processor_id: z.string(),
  amount: z.number().int().nullable().describe('cents; null for an open-amount link'),
  open_amount: z.boolean(),
  currency: z.literal('USD'),
  description: z.string(),
  redirect_url: z.string().describe('empty when not set (the pay result then points at the pay page)'),
  card_enabled: z.boolean(),
  ach_enabled: z.boolean(),
  status: z.enum(LINK_STATUSES),
  expires_at: timestamp.nullable(),
  paid_transaction_id: z.string().nullable(),
  url: z.string().describe('the hosted pay page'),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'PaymentLink' });
export type PaymentLink = z.output<typeof paymentLinkSchema>;

/** Public retrieval (no key): what a payer may see, plus a session token for this link. */
export const publicPaymentLinkSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  amount: z.number().int().nullable().describe('cents; null for an open-amount link'),
  open_amount: z.boolean(),
  currency: z.literal('USD'),
  description: z.string(),
  card_enabled: z.boolean(),
  ach_enabled: z.boolean(),
  status: z.enum(LINK_STATUSES),
  expires_at: timestamp.nullable(),
  session_token: z.string().describe('send as the Authorization header to pay this link (scoped to it)'),
  session_expires_at: timestamp.describe('30 minutes of platform time after retrieval'),
}).meta({ id: 'PublicPaymentLink' });
export type PublicPaymentLink = z.output<typeof publicPaymentLinkSchema>;

/** Spec "Payment Link pay result". */
export const paymentLinkPayResultSchema = z.object({
  id: z.string(),
  status: z.literal('paid'),
  transaction_status: z.string().describe('pending for an approved sale'),
  redirect_url: z.string(),
}).meta({ id: 'PaymentLinkPayResult' });
export type PaymentLinkPayResult = z.output<typeof paymentLinkPayResultSchema>;

export const paymentLinkListSchema = z.object({
  data: z.object({ items: z.array(paymentLinkSchema), total_count: z.number().int() }),
}).meta({ id: 'PaymentLinkList' });
export type PaymentLinkList = z.output<typeof paymentLinkListSchema>;

// ---------------------------------------------------------------- entities

/** What a link stores as its status; `expired` is also derived from expires_at when read. */
export type StoredLinkStatus = LinkStatus;

/** A payment link as the store keeps it and the services work on it. */
export interface PaymentLinkEntity {
  id: string;
  group_id: string;
  processor_id: string;
  /** Cents; null for an open-amount link (the payer names the amount). */
  amount: number | null;
  description: string;
  redirect_url: string;
  card_enabled: boolean;
  ach_enabled: boolean;
  status: StoredLinkStatus;
  expires_at: string | null;
  paid_transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A session of the public pay page: only the token's hash is kept. */
export interface PaymentLinkSessionEntity {
  token_hash: string;
  payment_link_id: string;
  created_at: string;
  expires_at: string;
}
