// Identifiers are UUID v7 (time-ordered, so inserts stay local in the index).
import { v7 } from 'uuid';
import { randomBytes } from 'node:crypto';

export const newId = (): string => v7();

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A random base62 string (for tokens, keys, slugs). */
export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length]!;
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4 * 62: no modulo bias
    if (i > length * 8) return out + randomBase62(length - out.length);
  }
  return out;
}
