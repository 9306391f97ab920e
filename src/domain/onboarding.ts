// Onboarding (spec 15, POST /api/v1/processing/signup_entry): the one schema of the
// request body, used by the HTTP route, the CLI and the Ink wizard, plus the small
// rule helpers the wizard uses to ask only the questions that apply.
//
// Cross-field rules live in one `superRefine` on `business` that runs even when fields
// inside have problems (`when`), reading a loosely-typed view of the input. That is
// what lets a 400 list every violated rule, not only the field-level ones.
import { z } from 'zod';
import { amount } from './money.js';
import { DEFAULT_MAX, email, requiredText, text } from './strings.js';
import { maskLastFour, TAX_ID_FIELDS } from './sensitive.js';

// ---------------------------------------------------------------------------
// Enumerations (spec tables, spelled exactly)

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

// ---------------------------------------------------------------------------
// Building blocks

// Latin letters with their accented forms: Latin-1 Supplement letters (not × and ÷),
// Latin Extended-A/B and Latin Extended Additional (Vietnamese, Welsh …).
const LATIN_LETTERS = 'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u024F\\u1E00-\\u1EFF';
const charClass = (punctuation: string) =>
  new RegExp(`^[${LATIN_LETTERS}0-9 ${punctuation.replace(/[\\\]^-]/g, '\\$&')}]*$`, 'u');

const NAME_PUNCTUATION = `"'(),.~&!+-`;
const DESCRIPTION_PUNCTUATION = `,./?:'"|~!@#$%^&*()+_=-`;
const NAME_CHARS = charClass(NAME_PUNCTUATION);
const DESCRIPTION_CHARS = charClass(DESCRIPTION_PUNCTUATION);
const spaced = (p: string) => p.split('').join(' ');
const NAME_RULE = `may contain only letters (accented Latin included), digits, spaces and ${spaced(NAME_PUNCTUATION)}`;
const DESCRIPTION_RULE = `may contain only letters (accented Latin included), digits, spaces and ${spaced(DESCRIPTION_PUNCTUATION)}`;

/** Names: NFC first so a name typed with combining accents (e + ◌́) still counts as é. */
const nameText = requiredText().normalize('NFC').regex(NAME_CHARS, { error: NAME_RULE });
const descriptionText = (min: 0 | 1, max = DEFAULT_MAX) =>
  z
    .string({ error: min ? 'is required and must be a string' : 'must be a string' })
    .normalize('NFC')
    .min(min, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .regex(DESCRIPTION_CHARS, { error: DESCRIPTION_RULE });

/** An enum with a message that lists the allowed values. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (iss) =>
      iss.input === undefined ? `is required (one of: ${values.join(', ')})` : `must be one of: ${values.join(', ')}`,
  });

const bool = z.boolean({
  error: (iss) => (iss.input === undefined ? 'is required (true or false)' : 'must be true or false'),
});

const wholeNumber = (min: number, max: number) =>
  z
    .int({
      error: (iss) =>
        iss.input === undefined ? `is required (a whole number from ${min} to ${max})` : `must be a whole number from ${min} to ${max}`,
    })
    .min(min, { error: `must be a whole number from ${min} to ${max}` })
    .max(max, { error: `must be a whole number from ${min} to ${max}` });

const percentage = wholeNumber(0, 100);

/** A strict object whose "missing / not an object" message says so; other issues keep zod's text. */
const obj = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'invalid_type'
        ? iss.input === undefined
          ? 'is required and must be an object'
          : 'must be an object'
        : undefined,
  });

/**
 * An array of at most `max` items. zod's own `.max()` on an array aborts the whole parse
 * before elements are read, which also silences every cross-field rule of the body. So
 * the real bound is a plain refinement (other rules still report) and only an absurd
 * size (10 × max) takes zod's early exit; JSON Schema still says `maxItems: max`.
 */
function boundedArray<T extends z.ZodType>(item: T, max: number, messages: { required: string; tooMany: string }) {
  return z
    .array(item, { error: messages.required })
    .max(max * 10, { error: messages.tooMany })
    .refine((a) => a.length <= max, { error: messages.tooMany })
    .meta({ maxItems: max });
}

const phone = obj({
  number: requiredText(),
  country_code: z.literal('1', { error: 'must be "1" (the only supported country code)' }),
});

const fileId = requiredText(255);

/**
 * A business's website: an http(s) address whose host has a dot (`https://cafe.example`);
 * the scheme may be left out (`cafe.example`). A word such as `not a url` is refused.
 */
export function isWebsite(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
    return (u.protocol === 'https:' || u.protocol === 'http:') && /^[^.]+(\.[^.]+)+$/.test(u.hostname);
  } catch {
    return false;
  }
}
const website = requiredText(2048).refine(isWebsite, { error: 'must be a web address, e.g. https://example.com' });
/** A merchant category code (ISO 18245): four digits. */
const industryMcc = z
  .string({ error: 'is required and must be a string' })
  .regex(/^\d{4}$/, { error: 'must be a 4-digit merchant category code (MCC), e.g. 5814 for restaurants' });
const statements = obj({
  first_month_file_id: fileId,
  second_month_file_id: fileId,
  third_month_file_id: fileId,
});

type Loose = Record<string, unknown>;
const isRecord = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `when` option: run the refinement whenever the value is an object, even if fields inside failed. */
const whenObject = { when: (payload: { value: unknown }) => isRecord(payload.value) };
const given = (v: unknown) => v !== undefined;

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const birthDate = obj({
  year: wholeNumber(1, 9999),
  month: wholeNumber(1, 12),
  day: wholeNumber(1, 31),
}).superRefine((d, ctx) => {
  const valid = Number.isInteger(d.year) && Number.isInteger(d.month) && d.month >= 1 && d.month <= 12 && Number.isInteger(d.day);
  if (valid && d.day > daysInMonth(d.year, d.month)) {
    ctx.addIssue({ code: 'custom', message: `must be a real calendar date (${d.year}-${String(d.month).padStart(2, '0')} has ${daysInMonth(d.year, d.month)} days)` });
  }
});

const representative = obj({
  first_name: requiredText(),
  middle_name: text().optional(),
  last_name: requiredText(),
  title: oneOf(TITLES),
  phone,
  email,
  address_line_1: requiredText(),
  address_line_2: text().optional(),
  city: requiredText(),
  subdivision: requiredText(),
  postal_code: requiredText(),
  birth_date: birthDate,
  ssn: requiredText().optional(),
  itin: requiredText().optional(),
  is_controller: bool,
  is_owner: bool,
  ownership_percentage: percentage,
  job_title: requiredText(),
}).superRefine((r: Loose, ctx) => {
  if (!given(r.ssn) && !given(r.itin)) {
    ctx.addIssue({ code: 'custom', path: ['ssn'], message: 'ssn or itin is required (at least one of the two)' });
  }
}, whenObject);

/** average/maximum amounts are required above the lowest volume range. */
export function amountsRequired(activity: unknown): boolean {
  return isRecord(activity) && isVolumeRange(activity.monthly_volume_range) && activity.monthly_volume_range !== 'under-10k';
}

const expectedActivity = obj({
  monthly_volume_range: oneOf(MONTHLY_VOLUME_RANGES),
  average_transaction_amount: amount.optional(),
  maximum_transaction_amount: amount.optional(),
}).superRefine((a: Loose, ctx) => {
  if (!amountsRequired(a)) return;
  for (const key of ['average_transaction_amount', 'maximum_transaction_amount'] as const) {
    if (!given(a[key])) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'is required when monthly_volume_range is not under-10k' });
    }
  }
}, whenObject);

const fundsSection = obj({ expected_transaction_activity: expectedActivity });

const isPercentage = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100;
// Range problems of single shares do not abort the object's checks; the sum is checked
// only when every share is itself valid, so one bad share gives one error.
const sumsTo100 = (keys: readonly string[]) => (group: Record<string, number>, ctx: z.RefinementCtx) => {
  if (!keys.every((k) => isPercentage(group[k]))) return;
  const sum = keys.reduce((s, k) => s + group[k]!, 0);
  if (sum !== 100) {
    ctx.addIssue({ code: 'custom', message: `${keys.join(' + ')} must sum to 100 (got ${sum})` });
  }
};

const volumeByCustomerType = obj({ b2b: percentage, b2c: percentage, p2p: percentage }).superRefine(
  sumsTo100(['b2b', 'b2c', 'p2p']),
);
const acceptanceMethods = obj({ in_person: percentage, online: percentage, mail_or_phone: percentage }).superRefine(
  sumsTo100(['in_person', 'online', 'mail_or_phone']),
);

const underwriting = obj({
  payment_methods: boundedArray(oneOf(PAYMENT_METHODS), PAYMENT_METHODS.length, {
    required: 'is required and must be a list of card, ach',
    tooMany: 'must list each of card, ach at most once',
  }).refine((m) => new Set(m).size === m.length, { error: 'must list each of card, ach at most once' }),
  geographich_reach: oneOf(GEOGRAPHIC_REACH),
  business_presence: oneOf(BUSINESS_PRESENCE).optional(),
  pending_litigation: oneOf(PENDING_LITIGATION).optional(),
  volume_by_customer_type: volumeByCustomerType.optional(),
  currently_accepts_card: bool.optional(),
  acceptance_methods: acceptanceMethods.optional(),
  fulfillment_method: oneOf(FULFILLMENT_METHODS).optional(),
  fulfillment_timeframe: oneOf(FULFILLMENT_TIMEFRAMES).optional(),
  refund_policy: oneOf(REFUND_POLICIES).optional(),
  collect_funds: obj({ ach: fundsSection.optional(), card: fundsSection.optional() }).optional(),
  send_funds: obj({ ach: fundsSection, instant_bank: fundsSection }),
});

// ---------------------------------------------------------------------------
// Rules on a loosely-typed `business` (shared by the schema and the wizard helpers)

const isVolumeRange = (v: unknown): v is (typeof MONTHLY_VOLUME_RANGES)[number] =>
  (MONTHLY_VOLUME_RANGES as readonly unknown[]).includes(v);

const sub = (v: unknown, ...keys: string[]): unknown => {
  let cur = v;
  for (const k of keys) cur = isRecord(cur) ? cur[k] : undefined;
  return cur;
};

const isSoleProp = (b: unknown) => sub(b, 'business_type') === SOLE_PROPRIETORSHIP;
const underwritingOf = (b: unknown): Loose | undefined => {
  const u = sub(b, 'underwriting');
  return isRecord(u) ? u : undefined;
};
const methodsOf = (b: unknown): unknown[] | undefined => {
  const m = sub(b, 'underwriting', 'payment_methods');
  return Array.isArray(m) ? m : undefined;
};
/** Legacy mode: no `underwriting` key at all, the deprecated fields stand in for it. */
const legacyMode = (b: unknown) => isRecord(b) && b.underwriting === undefined;

function bCurrentlyAcceptsCardRequired(b: unknown) {
  return (methodsOf(b)?.length ?? 0) > 0;
}
function bAcceptanceRequired(b: unknown) {
  return methodsOf(b)?.includes('card') ?? false;
}
function bFulfillmentRequired(b: unknown) {
  const inPerson = sub(b, 'underwriting', 'acceptance_methods', 'in_person');
  return bAcceptanceRequired(b) && typeof inPerson === 'number' && inPerson < IN_PERSON_THRESHOLD;
}
/** Rule 2: a soleProprietorship may omit collect_funds; when given, it follows the per-method rule. */
function bCollectFundsRequired(b: unknown, method: 'ach' | 'card') {
  if (!(methodsOf(b)?.includes(method) ?? false)) return false;
  return !(isSoleProp(b) && sub(b, 'underwriting', 'collect_funds') === undefined);
}
const FUNDS_SECTIONS = [
  ['collect_funds', 'ach'],
  ['collect_funds', 'card'],
  ['send_funds', 'ach'],
  ['send_funds', 'instant_bank'],
] as const;
/** Why rule 1 applies (a reason for the message), or undefined when it does not. */
function bRule1Reason(b: unknown): string | undefined {
  const reach = sub(b, 'underwriting', 'geographich_reach');
  if ((GEOGRAPHIC_REACH as readonly unknown[]).includes(reach) && reach !== 'us-only') {
    return `geographich_reach is ${String(reach)}`;
  }
  for (const [group, section] of FUNDS_SECTIONS) {
    const range = sub(b, 'underwriting', group, section, 'expected_transaction_activity', 'monthly_volume_range');
    if (isVolumeRange(range) && range !== 'under-10k') return `${group}.${section} monthly_volume_range is ${range}`;
  }
  return undefined;
}
/** Rule 3/4; `undefined` while currently_accepts_card is required but not (validly) given. */
function bStatementsRequired(b: unknown): 'processing' | 'bank' | undefined {
  if (legacyMode(b)) return 'processing';
  const accepts = sub(b, 'underwriting', 'currently_accepts_card');
  if (accepts === true) return 'processing';
  if (accepts === false || (accepts === undefined && !bCurrentlyAcceptsCardRequired(b))) return 'bank';
  return undefined;
}

function businessRules(b: Loose, ctx: z.RefinementCtx) {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const sole = isSoleProp(b);

  if (!given(b.description) && !given(b.website)) issue(['description'], 'is required unless website is given');
  if (!given(b.ein) && !(sole && given(b.ssn))) {
    issue(['ein'], sole ? 'is required (a soleProprietorship may give ssn instead)' : 'is required');
  }
  if (given(b.ssn) && !sole) issue(['ssn'], 'is allowed only for a soleProprietorship (as a replacement for ein)');

  if (legacyMode(b)) {
    const missing = LEGACY_FIELDS.filter((k) => !given(b[k]));
    if (missing.length === LEGACY_FIELDS.length) {
      issue(['underwriting'], `is required (or the deprecated ${LEGACY_FIELDS.join(', ')})`);
    } else {
      for (const k of missing) issue([k], 'is required when underwriting is absent (deprecated legacy field)');
    }
  }

  const u = underwritingOf(b);
  if (u) {
    const methods = methodsOf(b);
    if (methods && methods.length === 0 && !sole) {
      issue(['underwriting', 'payment_methods'], 'must include card or ach (may be empty only for a soleProprietorship)');
    }
    if (bCurrentlyAcceptsCardRequired(b) && !given(u.currently_accepts_card)) {
      issue(['underwriting', 'currently_accepts_card'], 'is required when payment_methods is not empty');
    }
    if (bAcceptanceRequired(b) && !given(u.acceptance_methods)) {
      issue(['underwriting', 'acceptance_methods'], 'is required when card is in payment_methods');
    }
    if (bFulfillmentRequired(b)) {
      for (const k of ['fulfillment_method', 'fulfillment_timeframe', 'refund_policy'] as const) {
        if (!given(u[k])) {
          issue(['underwriting', k], `is required when card is in payment_methods and acceptance_methods.in_person is below ${IN_PERSON_THRESHOLD}`);
        }
      }
    }
    for (const method of PAYMENT_METHODS) {
      if (bCollectFundsRequired(b, method) && !given(sub(u, 'collect_funds', method))) {
        issue(['underwriting', 'collect_funds', method], `is required when ${method} is in payment_methods`);
      }
    }
    const reason = bRule1Reason(b);
    if (reason) {
      for (const k of ['business_presence', 'pending_litigation', 'volume_by_customer_type'] as const) {
        if (!given(u[k])) issue(['underwriting', k], `is required when ${reason}`);
      }
    }
  }

  const statementsKind = bStatementsRequired(b);
  if (statementsKind === 'processing' && !given(b.processing_statements)) {
    issue(
      ['processing_statements'],
      legacyMode(b)
        ? 'is required (3 months) when the deprecated legacy fields are used'
        : 'is required (3 months) when underwriting.currently_accepts_card is true',
    );
  } else if (statementsKind === 'bank' && !given(b.bank_statements)) {
    issue(['bank_statements'], 'is required (3 months) when processing statements are not required');
  }
}

const business = obj({
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

// ---------------------------------------------------------------------------
// Helpers for the wizard and for display. They take a partial, unvalidated entry.

const businessOf = (entry: unknown) => sub(entry, 'business');

export const isSoleProprietorship = (entry: unknown) => isSoleProp(businessOf(entry));
export const paymentMethodsOf = (entry: unknown): string[] =>
  (methodsOf(businessOf(entry)) ?? []).filter((m): m is string => typeof m === 'string');
export const needsCurrentlyAcceptsCard = (entry: unknown) => bCurrentlyAcceptsCardRequired(businessOf(entry));
export const needsAcceptanceMethods = (entry: unknown) => bAcceptanceRequired(businessOf(entry));
/** card accepted and in_person below 80: fulfillment_method, fulfillment_timeframe, refund_policy apply. */
export const needsFulfillment = (entry: unknown) => bFulfillmentRequired(businessOf(entry));
/** Rule 1: business_presence, pending_litigation, volume_by_customer_type apply. */
export const needsRule1Fields = (entry: unknown) => bRule1Reason(businessOf(entry)) !== undefined;
/** The wizard asks collect_funds.<method> whenever the method is used (required unless rule 2 lifts it). */
export const usesPaymentMethod = (entry: unknown, method: 'ach' | 'card') => paymentMethodsOf(entry).includes(method);
export const collectFundsRequired = (entry: unknown, method: 'ach' | 'card') => bCollectFundsRequired(businessOf(entry), method);
/** Rules 3 and 4: which three months of statements the entry needs. */
export const statementsRequired = (entry: unknown): 'processing' | 'bank' =>
  bStatementsRequired(businessOf(entry)) ?? 'bank';

export interface RelevantSections {
  legacy: boolean;
  currentlyAcceptsCard: boolean;
  acceptanceMethods: boolean;
  fulfillment: boolean;
  collectFunds: { ach: boolean; card: boolean };
  rule1: boolean;
  statements: 'processing' | 'bank';
}

/** Which conditional parts of the form apply to this (partial) entry. */
export function relevantSections(entry: unknown): RelevantSections {
  return {
    legacy: legacyMode(businessOf(entry)),
    currentlyAcceptsCard: needsCurrentlyAcceptsCard(entry),
    acceptanceMethods: needsAcceptanceMethods(entry),
    fulfillment: needsFulfillment(entry),
    collectFunds: { ach: usesPaymentMethod(entry, 'ach'), card: usesPaymentMethod(entry, 'card') },
    rule1: needsRule1Fields(entry),
    statements: statementsRequired(entry),
  };
}

/** "123-45-6789" → "•••••6789"; short values are hidden entirely (the one masking: ./sensitive.ts). */
export const maskValue = maskLastFour;

/** A copy of the entry (or draft) with every tax id (ssn, itin, ein: ./sensitive.ts) reduced to its last four. */
export function maskSensitive<T>(entry: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isRecord(v)) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, TAX_ID_FIELDS.has(k) && typeof x === 'string' ? maskValue(x) : walk(x)]),
    );
  };
  return walk(entry) as T;
}

/** A signup entry as the store keeps it: the validated entry, ssn/itin/ein masked to their last four. */
export interface SignupEntryEntity {
  id: string;
  signup_form_id: string;
  external_id: string | null;
  /** The business account (group) the entry created. */
  group_id: string;
  status: 'pending_review' | 'approved' | 'rejected';
  business_name: string;
  entry: SignupEntry;
  created_at: string;
}
