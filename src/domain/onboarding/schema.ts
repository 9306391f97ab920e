// The one schema of POST /api/v1/processing/signup_entry's body (spec 15), used by the
// HTTP route, the CLI and the Ink wizard, and the types it gives.
import { z } from 'zod';
import { amount } from '../money.js';
import { email, requiredText, text } from '../strings.js';
import { BUSINESS_TYPES, IN_PERSON_THRESHOLD, MAX_REPRESENTATIVES } from './enums.js';
import { boundedArray, descriptionText, industryMcc, nameText, obj, oneOf, phone, representative, statements, underwriting, website, whenObject } from './fields.js';
import { businessRules } from './rules.js';

export const business = obj({
  business_name: nameText,
  doing_business_as: nameText,
  business_type: oneOf(BUSINESS_TYPES),
  description: descriptionText(1, 100).optional(),
  website: website.optional(),
  ein: requiredText().optional(),
  ssn: requiredText().optional(),
  industry_mcc: industryMcc,
  phone,
  email,
  address_line_1: descriptionText(1),
  address_line_2: descriptionText(0).optional(),
  city: descriptionText(1),
  subdivision: requiredText(),
  postal_code: requiredText(),
  representatives: boundedArray(representative, MAX_REPRESENTATIVES, {
    required: 'is required and must be a list',
    tooMany: `must list at most ${MAX_REPRESENTATIVES} representatives`,
  }).refine((r) => r.length >= 1, { error: 'must list at least one representative' }),
  underwriting: underwriting.optional(),
  processing_statements: statements.optional(),
  bank_statements: statements.optional(),
  // Deprecated (Versioning 2): typed here, required only in legacy mode, dropped otherwise.
  average_monthly_transaction_volume: requiredText().optional(),
  max_transaction_size: amount.optional(),
  average_transaction_size: amount.optional(),
})
  .superRefine(businessRules, whenObject)
  .overwrite((b) => {
    if (b.underwriting === undefined) return b;
    const { average_monthly_transaction_volume: _a, max_transaction_size: _m, average_transaction_size: _t, ...rest } = b;
    return rest;
  })
  .describe(
    'Cross-field rules: description is required unless website is given; ein is required (a soleProprietorship may give ssn instead; ssn only for one); ' +
      'without underwriting the deprecated average_monthly_transaction_volume, max_transaction_size and average_transaction_size are required; ' +
      'underwriting.payment_methods includes card or ach (may be empty only for a soleProprietorship); with payment methods, currently_accepts_card is required; with card, acceptance_methods; ' +
      `with card and acceptance_methods.in_person below ${IN_PERSON_THRESHOLD}, fulfillment_method, fulfillment_timeframe and refund_policy; collect_funds.<method> for each method used; ` +
      'processing_statements (3 months) when currently_accepts_card is true (or legacy fields are used), bank_statements otherwise; a birth_date is a real calendar date.',
  );

/** Body of POST /api/v1/processing/signup_entry. */
export const signupEntrySchema = obj({
  signup_form_id: requiredText(),
  external_id: text(36).optional(),
  business,
}).meta({ id: 'SignupEntry' });

export type SignupEntry = z.output<typeof signupEntrySchema>;
export type SignupEntryInput = z.input<typeof signupEntrySchema>;
export type Business = SignupEntry['business'];
export type Representative = Business['representatives'][number];
export type Underwriting = NonNullable<Business['underwriting']>;
