// Partners (whom an invoice is addressed to): the create request, the list query, the
// API object and its list. Spec: "Partner", endpoints 11-12.
import { z } from 'zod';
import { looseBillingAddress } from '../address.js';
import { requiredText, text, timestamp } from '../strings.js';
import { pagingQuery } from '../paging.js';

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
