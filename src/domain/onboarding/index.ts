// Onboarding (spec 15, POST /api/v1/processing/signup_entry) as pure rules: the one schema
// of the request body and its parts (enums, fields, rules, schema), which parts of the form
// apply to a partial entry (sections), the stored entity (entity). Beside them, imported
// by path: the wizard's questions, drafts, answers, problems and relevance, and the
// endpoint's response (response.ts).
export { BUSINESS_PRESENCE, BUSINESS_TYPES, FULFILLMENT_METHODS, FULFILLMENT_TIMEFRAMES, GEOGRAPHIC_REACH, IN_PERSON_THRESHOLD, LEGACY_FIELDS, MAX_REPRESENTATIVES, MONTHLY_VOLUME_RANGES, PAYMENT_METHODS, PENDING_LITIGATION, REFUND_POLICIES, SOLE_PROPRIETORSHIP, TITLES } from './enums.js';
export { amountsRequired, isWebsite } from './fields.js';
export { Business, Representative, SignupEntry, SignupEntryInput, Underwriting, signupEntrySchema } from './schema.js';
export { RelevantSections, collectFundsRequired, isSoleProprietorship, needsAcceptanceMethods, needsCurrentlyAcceptsCard, needsFulfillment, needsRule1Fields, paymentMethodsOf, relevantSections, statementsRequired, usesPaymentMethod } from './sections.js';
export { SignupEntryEntity, maskSensitive, maskValue } from './entity.js';
