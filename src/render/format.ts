// One formatter per concept of human output, used by every table, receipt, screen and
// e-mail: a card is "Visa …1111", a bank account "ACH checking …6789", money "$12.34"
// (with its cents where an exact figure helps: "$12.34 (1234 cents)"), a point in time
// "2026-06-30 14:00 CEST" — local time, as a person reads a clock, with the zone named so
// it cannot be mistaken for the platform's UTC. --json output never goes through here.
import { formatMoney, type ExactInt } from '../domain/money.js';
import { bankAccountText, cardText } from '../domain/payment-method-text.js';

/** Cents as money: "$12.34". */
export const money = (cents: ExactInt, currency = 'USD'): string => formatMoney(cents, currency);

/** Cents as money and cents: "$12.34 (1234 cents)". */
export const moneyWithCents = (cents: ExactInt, currency = 'USD'): string => `${formatMoney(cents, currency)} (${cents} cents)`;

// The payment-method wording is the domain's (the receipt e-mail says it the same way).
export { bankAccountText, cardText };

/** What something was paid with: its card, else its bank account, else the method's name. */
export function paymentMethodText(
  details: { card?: { brand: string | null; last_four: string } | null; bank_account?: { account_type?: string | null; last_four: string } | null },
  fallback: string,
): string {
  if (details.card) return cardText(details.card);
  if (details.bank_account) return bankAccountText(details.bank_account);
  return fallback;
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();

function zoneName(d: Date): string {
  const key = process.env.TZ ?? '';
  let f = zoneNames.get(key);
  if (!f) zoneNames.set(key, (f = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })));
  return f.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

const two = (n: number) => String(n).padStart(2, '0');

/** A timestamp in local time with its zone: "2026-06-30 14:00 CEST"; text that is not a time is shown as given. */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return `${day} ${two(d.getHours())}:${two(d.getMinutes())} ${zoneName(d)}`.trimEnd();
}
