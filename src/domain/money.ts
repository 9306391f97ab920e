// Amounts are integers in minor units (cents). DESIGN.md "Amounts" is the rule:
// JSON integers 0..2^53-1; fields the spec lists "as string" also take a digit string.
import { z } from 'zod';

export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/** A non-negative integer amount in cents, JSON number only. */
export const uint64 = z
  .int({ error: 'must be a whole number of cents (an integer from 0 to 9007199254740991)' })
  .min(0, { error: 'must not be negative' })
  .max(MAX_AMOUNT, { error: 'must be at most 9007199254740991' });

/** A uint64 that the spec lists "as string": a JSON integer or a string of digits. */
export const uint64Loose = z.union([
  uint64,
  z
    .string()
    .regex(/^\d{1,16}$/, { error: 'must be a whole number or a string of digits' })
    .transform((s) => Number(s))
    .pipe(uint64),
], { error: 'must be a whole number or a string of digits' });

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

/** Cents as "$12.34" (USD is the only currency). */
export function formatMoney(cents: number, currency = 'USD'): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  return `${sign}${symbol}${whole}.${String(abs % 100).padStart(2, '0')}`;
}
