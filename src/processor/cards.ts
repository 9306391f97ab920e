// Card number rules: Luhn, brand detection, and what may be kept of a card.
export type Brand = 'Visa' | 'Mastercard' | 'American Express' | 'Discover';

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function detectBrand(number: string): Brand | undefined {
  if (/^4/.test(number)) return 'Visa';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^(6011|65|64[4-9]|622)/.test(number)) return 'Discover';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'Mastercard';
  return undefined;
}

/** Amex uses a four-digit security code, the others three. */
export const cvvLength = (brand: Brand): number => (brand === 'American Express' ? 4 : 3);

/** ABA routing number checksum (3-7-1 weights). */
export function routingNumberValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = routing.split('').map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}
