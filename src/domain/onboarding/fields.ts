// The building blocks of the signup entry schema: the texts, numbers, lists and objects
// its fields are made of, and the sections (a representative, underwriting) built from them.
import { z } from 'zod';
import { amount } from '../money.js';
import { DEFAULT_MAX, email, requiredText, text } from '../strings.js';
import { BUSINESS_PRESENCE, FULFILLMENT_METHODS, FULFILLMENT_TIMEFRAMES, GEOGRAPHIC_REACH, isVolumeRange, MONTHLY_VOLUME_RANGES, PAYMENT_METHODS, PENDING_LITIGATION, REFUND_POLICIES, TITLES } from './enums.js';

// Latin letters with their accented forms: Latin-1 Supplement letters (not × and ÷),
// Latin Extended-A/B and Latin Extended Additional (Vietnamese, Welsh …).
export const LATIN_LETTERS = 'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u024F\\u1E00-\\u1EFF';
export const charClass = (punctuation: string) =>
  new RegExp(`^[${LATIN_LETTERS}0-9 ${punctuation.replace(/[\\\]^-]/g, '\\$&')}]*$`, 'u');

export const NAME_PUNCTUATION = `"'(),.~&!+-`;
export const DESCRIPTION_PUNCTUATION = `,./?:'"|~!@#$%^&*()+_=-`;
export const NAME_CHARS = charClass(NAME_PUNCTUATION);
export const DESCRIPTION_CHARS = charClass(DESCRIPTION_PUNCTUATION);
export const spaced = (p: string) => p.split('').join(' ');
export const NAME_RULE = `may contain only letters (accented Latin included), digits, spaces and ${spaced(NAME_PUNCTUATION)}`;
export const DESCRIPTION_RULE = `may contain only letters (accented Latin included), digits, spaces and ${spaced(DESCRIPTION_PUNCTUATION)}`;

/** Names: NFC first so a name typed with combining accents (e + ◌́) still counts as é. */
export const nameText = requiredText().normalize('NFC').regex(NAME_CHARS, { error: NAME_RULE });
export const descriptionText = (min: 0 | 1, max = DEFAULT_MAX) =>
  z
    .string({ error: min ? 'is required and must be a string' : 'must be a string' })
    .normalize('NFC')
    .min(min, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .regex(DESCRIPTION_CHARS, { error: DESCRIPTION_RULE });

/** An enum with a message that lists the allowed values. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (iss) =>
      iss.input === undefined ? `is required (one of: ${values.join(', ')})` : `must be one of: ${values.join(', ')}`,
  });

export const bool = z.boolean({
  error: (iss) => (iss.input === undefined ? 'is required (true or false)' : 'must be true or false'),
});

export const wholeNumber = (min: number, max: number) =>
  z
    .int({
      error: (iss) =>
        iss.input === undefined ? `is required (a whole number from ${min} to ${max})` : `must be a whole number from ${min} to ${max}`,
    })
    .min(min, { error: `must be a whole number from ${min} to ${max}` })
    .max(max, { error: `must be a whole number from ${min} to ${max}` });

export const percentage = wholeNumber(0, 100);

/** A strict object whose "missing / not an object" message says so; other issues keep zod's text. */
export const obj = <S extends z.ZodRawShape>(shape: S) =>
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
export function boundedArray<T extends z.ZodType>(item: T, max: number, messages: { required: string; tooMany: string }) {
  return z
    .array(item, { error: messages.required })
    .max(max * 10, { error: messages.tooMany })
    .refine((a) => a.length <= max, { error: messages.tooMany })
    .meta({ maxItems: max });
}

export const phone = obj({
  number: requiredText(),
  country_code: z.literal('1', { error: 'must be "1" (the only supported country code)' }),
});

export const fileId = requiredText(255);

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
export const website = requiredText(2048).refine(isWebsite, { error: 'must be a web address, e.g. https://example.com' });
/** A merchant category code (ISO 18245): four digits. */
export const industryMcc = z
  .string({ error: 'is required and must be a string' })
  .regex(/^\d{4}$/, { error: 'must be a 4-digit merchant category code (MCC), e.g. 5814 for restaurants' });
export const statements = obj({
  first_month_file_id: fileId,
  second_month_file_id: fileId,
  third_month_file_id: fileId,
});

export type Loose = Record<string, unknown>;
export const isRecord = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `when` option: run the refinement whenever the value is an object, even if fields inside failed. */
export const whenObject = { when: (payload: { value: unknown }) => isRecord(payload.value) };
export const given = (v: unknown) => v !== undefined;

export const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export const birthDate = obj({
  year: wholeNumber(1, 9999),
  month: wholeNumber(1, 12),
  day: wholeNumber(1, 31),
}).superRefine((d, ctx) => {
  const valid = Number.isInteger(d.year) && Number.isInteger(d.month) && d.month >= 1 && d.month <= 12 && Number.isInteger(d.day);
  if (valid && d.day > daysInMonth(d.year, d.month)) {
    ctx.addIssue({ code: 'custom', message: `must be a real calendar date (${d.year}-${String(d.month).padStart(2, '0')} has ${daysInMonth(d.year, d.month)} days)` });
  }
});

export const representative = obj({
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

export const expectedActivity = obj({
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

export const fundsSection = obj({ expected_transaction_activity: expectedActivity });

export const isPercentage = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100;
// Range problems of single shares do not abort the object's checks; the sum is checked
// only when every share is itself valid, so one bad share gives one error.
export const sumsTo100 = (keys: readonly string[]) => (group: Record<string, number>, ctx: z.RefinementCtx) => {
  if (!keys.every((k) => isPercentage(group[k]))) return;
  const sum = keys.reduce((s, k) => s + group[k]!, 0);
  if (sum !== 100) {
    ctx.addIssue({ code: 'custom', message: `${keys.join(' + ')} must sum to 100 (got ${sum})` });
  }
};

export const volumeByCustomerType = obj({ b2b: percentage, b2c: percentage, p2p: percentage }).superRefine(
  sumsTo100(['b2b', 'b2c', 'p2p']),
);
export const acceptanceMethods = obj({ in_person: percentage, online: percentage, mail_or_phone: percentage }).superRefine(
  sumsTo100(['in_person', 'online', 'mail_or_phone']),
);

export const underwriting = obj({
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
