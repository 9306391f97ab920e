// Onboarding's enumerations (spec 15's tables, spelled exactly) and the numbers its rules
// turn on.

export const BUSINESS_TYPES = [
  'soleProprietorship',
  'unincorporatedAssociation',
  'trust',
  'publicCorporation',
  'privateCorporation',
  'llc',
  'partnership',
  'unincorporatedNonProfit',
  'incorporatedNonProfit',
  'governmentEntity',
] as const;
export const TITLES = ['mr', 'ms', 'mrs', 'mx'] as const;
export const PAYMENT_METHODS = ['card', 'ach'] as const;
export const GEOGRAPHIC_REACH = ['international-only', 'us-and-international', 'us-only'] as const;
export const BUSINESS_PRESENCE = [
  'commercial-office',
  'home-based',
  'mixed-presence',
  'mobile-business',
  'online-only',
  'retail-storefront',
] as const;
export const PENDING_LITIGATION = [
  'bankruptcy-or-insolvency',
  'consumer-protection-or-class-action',
  'data-breach-or-privacy',
  'employment-or-workplace-disputes',
  'fraud-or-financial-crime',
  'government-enforcement-or-investigation',
  'intellectual-property',
  'none',
  'other',
  'personal-injury-or-medical',
] as const;
export const FULFILLMENT_METHODS = [
  'bill-or-debt-payment',
  'digital-content',
  'donation',
  'in-person-service',
  'local-pickup-or-delivery',
  'other',
  'remote-service',
  'shipped-physical-goods',
  'subscription-or-membership',
] as const;
export const FULFILLMENT_TIMEFRAMES = [
  'immediate',
  'other',
  'over-30-days',
  'pre-order',
  'recurring-schedule',
  'scheduled-event',
  'within-30-days',
  'within-7-days',
] as const;
export const REFUND_POLICIES = [
  'conditional-refund',
  'custom-policy',
  'event-based-policy',
  'full-refund-extended-window',
  'full-refund-within-30-days',
  'no-refunds',
  'partial-refund',
  'prorated-refund',
  'store-credit-only',
] as const;
export const MONTHLY_VOLUME_RANGES = [
  'under-10k',
  '10k-50k',
  '50k-100k',
  '100k-250k',
  '250k-500k',
  '500k-1m',
  '1m-5m',
  'over-5m',
] as const;

/** The deprecated fields that stand in for `underwriting` (Versioning 2). */
export const LEGACY_FIELDS = ['average_monthly_transaction_volume', 'max_transaction_size', 'average_transaction_size'] as const;
/** The spec sets no bound on representatives; ten is ours (arrays are bounded: docs/decisions.md#unknown-fields). */
export const MAX_REPRESENTATIVES = 10;
/** card present and in-person share below this: fulfillment questions apply. */
export const IN_PERSON_THRESHOLD = 80;
export const SOLE_PROPRIETORSHIP = 'soleProprietorship';

export const isVolumeRange = (v: unknown): v is (typeof MONTHLY_VOLUME_RANGES)[number] =>
  (MONTHLY_VOLUME_RANGES as readonly unknown[]).includes(v);
