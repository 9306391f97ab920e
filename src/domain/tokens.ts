// The tokenizer's request shape (POST /api/v1/tokens).
import { z } from 'zod';
import { text, timestamp } from './strings.js';

export const cardTokenRequest = z.strictObject({
  number: z.string({ error: 'is required and must be a string of digits' }).regex(/^\d{12,19}$/, { error: 'must be 12 to 19 digits' })
    .describe('12 to 19 digits passing the Luhn check; never stored'),
  // The bounds sit on each branch (for the API document) and on the parsed value (for the message).
  expiration_month: z
    .union([z.int().min(1).max(12), z.string().regex(/^(0?[1-9]|1[0-2])$/).transform(Number)], { error: 'must be a month 1-12' })
    .pipe(z.int().min(1, { error: 'must be a month 1-12' }).max(12, { error: 'must be a month 1-12' }))
    .describe('1-12 (a number, or a string of one or two digits)'),
  expiration_year: z
    .union([z.int().min(0).max(9999), z.string().regex(/^\d{2}(\d{2})?$/).transform(Number)], { error: 'must be a year (2030 or 30)' })
    .pipe(z.int().min(0).max(9999))
    .transform((y) => (y < 100 ? 2000 + y : y))
    .describe('four digits, or two meaning 20YY; with expiration_month the card must not have expired (its month has not ended on the platform clock)'),
  cvv: z.string({ error: 'is required and must be a string of 3 or 4 digits' }).regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' }),
  holder_name: text(100).optional(),
});

export const bankTokenRequest = z.strictObject({
  routing_number: z.string({ error: 'is required' }).regex(/^\d{9}$/, { error: 'must be 9 digits' }),
  account_number: z.string({ error: 'is required' }).regex(/^\d{4,17}$/, { error: 'must be 4 to 17 digits' }),
  account_type: z.enum(['checking', 'savings'], { error: 'must be checking or savings' }),
  holder_name: text(100).optional(),
});

export const cardTokenBody = z.strictObject({ card: cardTokenRequest }).meta({ id: 'CardTokenRequest' });
export const bankTokenBody = z.strictObject({ bank_account: bankTokenRequest }).meta({ id: 'BankAccountTokenRequest' });
/** For the OpenAPI document; requests are parsed by the shape they name (card or bank_account). */
export const tokenRequestSchema = z.union([cardTokenBody, bankTokenBody]).meta({ id: 'TokenRequest' });

/** Pick the shape by its top-level member so errors name the real field, not "invalid union". */
export function tokenBodySchemaFor(body: unknown): typeof cardTokenBody | typeof bankTokenBody {
  return typeof body === 'object' && body !== null && 'bank_account' in body ? bankTokenBody : cardTokenBody;
}

export type TokenRequest = z.output<typeof tokenRequestSchema>;

/**
 * The tokenizer's input: a card or a bank account body, each parsed by the shape its
 * top-level member names (errors as that shape's; no "invalid union").
 */
export const tokenInputSchema = z.unknown().transform((body, ctx): TokenRequest => {
  const parsed = tokenBodySchemaFor(body).safeParse(body);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: body } as (typeof ctx.issues)[number]);
  return z.NEVER;
});

export const tokenResponseSchema = z.object({
  token: z.string(),
  type: z.enum(['card', 'bank_account']),
  expires_at: timestamp,
  card: z
    .object({
      brand: z.string(),
      card_type: z.string(),
      first_six: z.string(),
      last_four: z.string(),
      expiration_month: z.number(),
      expiration_year: z.number(),
      holder_name: z.string(),
    })
    .optional(),
  bank_account: z
    .object({ routing_number: z.string(), last_four: z.string(), account_type: z.string(), holder_name: z.string() })
    .optional(),
}).meta({ id: 'Token' });
export type TokenResponse = z.output<typeof tokenResponseSchema>;

/**
 * A payment token as the platform keeps it: what a charge may know of a card or bank
 * account (never the full number or the CVV: whether one was given).
 */
export interface TokenEntity {
  token: string;
  type: 'card' | 'bank_account';
  brand: string | null;
  card_type: string | null;
  first_six: string | null;
  last_four: string;
  exp_month: number | null;
  exp_year: number | null;
  holder_name: string;
  routing_number: string | null;
  account_type: string | null;
  cvv_supplied: boolean;
  test_outcome: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** What a charge (or the vault, storing it) reads of a token's payment method. */
export type TokenMethod = Pick<TokenEntity, 'type' | 'brand' | 'card_type' | 'first_six' | 'last_four' | 'exp_month' | 'exp_year' | 'holder_name' | 'routing_number' | 'account_type' | 'test_outcome'>;
