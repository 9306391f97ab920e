// Address rules from the spec's Address object and Limits table. One place for each
// bound; the request schemas pick the variant their endpoint names.
import { z } from 'zod';
import { email, requiredText, text } from './strings.js';

const country = z.string({ error: 'is required and must be a string' }).length(2, { error: 'must be exactly 2 characters (ISO country code)' });
const subdivision = z
  .string({ error: 'is required and must be a string' })
  .min(2, { error: 'must be 2 or 3 characters' })
  .max(3, { error: 'must be 2 or 3 characters' });

/** Sale and add-card: 5 to 10 characters, exactly 5 for US. */
const salePostal = z
  .string({ error: 'is required and must be a string' })
  .min(5, { error: 'must be 5 to 10 characters' })
  .max(10, { error: 'must be 5 to 10 characters' })
  .describe('5 to 10 characters; exactly 5 when country is US');

/** Capture variant A and subscription update: 1 to 10, letters/digits, single space or hyphen inside. */
export const loosePostal = z
  .string({ error: 'is required and must be a string' })
  .min(1, { error: 'must be 1 to 10 characters' })
  .max(10, { error: 'must be 1 to 10 characters' })
  .regex(/^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/, {
    error: 'must start and end with a letter or digit; only single spaces and hyphens in between',
  });

/** Exactly five characters when the country is US (sale, add-card, pay link). */
function usPostalRule(a: { country?: string | undefined; postal_code?: string | undefined }, ctx: z.RefinementCtx) {
  if (a.country?.toUpperCase() === 'US' && a.postal_code !== undefined && a.postal_code.length > 5 && a.postal_code.length <= 10) {
    ctx.addIssue({ code: 'custom', path: ['postal_code'], message: 'must be exactly 5 characters for US' });
  }
}

const personFields = {
  first_name: requiredText(64),
  last_name: requiredText(64),
  company: text().optional(),
  line_1: requiredText(60),
  line_2: text(32).optional(),
  city: requiredText(24),
  subdivision,
  country,
  email,
};

/** Billing address of a sale (and pay link): the required fields of the spec, US postal rule. */
export const saleBillingAddress = z.strictObject({ ...personFields, postal_code: salePostal }).superRefine(usPostalRule);

/** Billing address of a pay-link payment: the sale rules plus an optional phone. */
export const payLinkBillingAddress = z
  .strictObject({ ...personFields, postal_code: salePostal, phone: text(20).optional() })
  .superRefine(usPostalRule);

/** Billing address of capture variant A and subscription update: loose postal code. */
export const looseBillingAddress = z.strictObject({ ...personFields, postal_code: loosePostal });

/** Billing address of add-card: no names or e-mail. */
export const cardBillingAddress = z
  .strictObject({
    city: requiredText(24),
    company: text().optional(),
    country,
    line_1: requiredText(60),
    line_2: text(32).optional(),
    postal_code: salePostal,
    subdivision,
  })
  .superRefine(usPostalRule);

/** Shipping address: every part optional, still bounded. */
export const shippingAddress = z.strictObject({
  first_name: text(64).optional(),
  last_name: text(64).optional(),
  company: text().optional(),
  line_1: text(60).optional(),
  line_2: text(32).optional(),
  city: text(24).optional(),
  subdivision: text(3).optional(),
  postal_code: text(10).optional(),
  country: text(2).optional(),
  email: text(100).optional(),
});

export type SaleBillingAddress = z.output<typeof saleBillingAddress>;
export type LooseBillingAddress = z.output<typeof looseBillingAddress>;
export type CardBillingAddress = z.output<typeof cardBillingAddress>;
export type ShippingAddress = z.output<typeof shippingAddress>;
export type Address = Partial<SaleBillingAddress> & { phone?: string };

/** Sale countries: US, CA, UK (GB accepted as the ISO spelling of UK). */
export const SALE_COUNTRIES = ['US', 'CA', 'UK', 'GB'] as const;
export function isSaleCountry(country: string): boolean {
  return (SALE_COUNTRIES as readonly string[]).includes(country.toUpperCase());
}
