// Amounts are integers in minor units (cents). docs/decisions.md#amounts is the rule: an amount
// is 0..99,999,999,999 (11 digits), and every amount the platform makes (a request's,
// a proration, an invoice total) is held to it here, in one place. Counts and other
// whole numbers (quantities, durations, offsets) keep JSON's exact range 0..2^53-1.
// Sums of amounts are exact integers: `ExactInt` is a number while it is a safe
// integer and a bigint above 2^53 (src/lib/exact-json.ts writes both as JSON integers).
import { z } from 'zod';

/** The largest amount the platform accepts or makes: $999,999,999.99. */
export const MAX_AMOUNT = 99_999_999_999;
/** The largest whole number JSON carries exactly (counts, quantities, offsets). */
export const MAX_WHOLE = Number.MAX_SAFE_INTEGER;

const AMOUNT_RULE = `must be a whole number of cents from 0 to ${MAX_AMOUNT}`;

/** A non-negative whole number (a count, quantity, duration), JSON number only. */
export const uint64 = z
  .int({ error: `must be a whole number (an integer from 0 to ${MAX_WHOLE})` })
  .min(0, { error: 'must not be negative' })
  .max(MAX_WHOLE, { error: `must be at most ${MAX_WHOLE}` });

/** A uint64 that the spec lists "as string": a JSON integer or a string of digits. */
export const uint64Loose = z.union([
  uint64,
  z
    .string()
    .regex(/^\d{1,16}$/, { error: 'must be a whole number or a string of digits' })
    .transform((s) => Number(s))
    .pipe(uint64),
], { error: 'must be a whole number or a string of digits' });

/** An amount of money in cents: 0..MAX_AMOUNT, JSON number only. */
export const amount = z
  .int({ error: AMOUNT_RULE })
  .min(0, { error: 'must not be negative' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} cents (the largest amount)` });

/** An amount that the spec lists "as string": a JSON integer or a string of digits. */
export const amountLoose = z.union([
  amount,
  z
    .string()
    .regex(/^\d{1,16}$/, { error: 'must be a whole number of cents or a string of digits' })
    .transform((s) => Number(s))
    .pipe(amount),
], { error: 'must be a whole number of cents or a string of digits' });

/**
 * An amount as the API answers it. Databases from before the bound may hold amounts up
 * to 2^53-1 that were accepted then, so a response allows them.
 */
export const storedAmount = uint64;

/** An exact integer: a number while safe, a bigint beyond 2^53 (sums of amounts). */
export type ExactInt = number | bigint;

/**
 * A sum of amounts in a response: an exact JSON integer with no upper bound (beyond 2^53
 * it is a bigint in memory, written as an exact literal). Readers that parse JSON into
 * doubles should read it as a big integer.
 */
export const exactIntSchema = z
  .custom<ExactInt>((v) => (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint', { error: 'must be an exact integer' })
  .meta({ type: 'integer', 'x-exact-integer': true, description: 'an exact integer; may exceed 2^53 (read it as a big integer)' });

/** The exact form of a bigint sum: a number when it is a safe integer. */
export function exactInt(n: bigint): ExactInt {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** Σ of integers, exact at any size. */
export function exactSum(values: Iterable<ExactInt>): ExactInt {
  let sum = 0n;
  for (const v of values) sum += BigInt(v);
  return exactInt(sum);
}

/** Whether an amount (or an exact sum) is within MAX_AMOUNT. */
export function withinMaxAmount(n: ExactInt): boolean {
  return n <= MAX_AMOUNT;
}

/**
 * A sum as SQL hands it over in two halves (see src/store/exact-sum.ts): Σ(x div 2^26)
 * and Σ(x mod 2^26), each as decimal text or a number, recombined exactly.
 */
export const SPLIT = 67_108_864; // 2^26
export function fromSplit(high: string | number | bigint | null | undefined, low: string | number | bigint | null | undefined): ExactInt {
  const h = BigInt(high ?? 0);
  const l = BigInt(low ?? 0);
  return exactInt(h * BigInt(SPLIT) + l);
}

/** A boolean that the spec lists "as string": true/false or "true"/"false". */
export const booleanLoose = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((s) => s === 'true'),
], { error: 'must be true or false' });

/** Parse money written by a person ("12.34", "12", "0.5") into cents. */
export function parseMoney(text: string): number {
  const m = /^(\d{1,14})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not an amount of money (write 12.34)`);
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new Error(`"${text}" is too large`);
  return cents;
}

/** Cents as "$12.34" (USD is the only currency); exact for sums beyond 2^53 too. */
export function formatMoney(cents: ExactInt, currency = 'USD'): string {
  const big = BigInt(cents);
  const sign = big < 0n ? '-' : '';
  const abs = big < 0n ? -big : big;
  const whole = (abs / 100n).toLocaleString('en-US');
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  return `${sign}${symbol}${whole}.${String(abs % 100n).padStart(2, '0')}`;
}
