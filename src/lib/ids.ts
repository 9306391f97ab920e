// Identifiers are UUID v7 (time-ordered, so inserts stay local in the index).
import { randomBytes, randomFillSync } from 'node:crypto';

// UUID v7 (RFC 9562) written here rather than imported from the uuid package, whose ESM
// build is ~20 modules that every command loaded at start-up. Same layout as
// uuid's v7: 48-bit Unix milliseconds, then a 32-bit counter seeded at random each
// millisecond and incremented within one, so ids made by one process always increase.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const random = Buffer.alloc(16 * 256);
let randomAt = random.length;
let lastMs = -Infinity;
let seq = 0;

export function newId(): string {
  if (randomAt === random.length) {
    randomFillSync(random);
    randomAt = 0;
  }
  const r = random.subarray(randomAt, (randomAt += 16));
  let ms = Date.now();
  if (ms > lastMs) {
    seq = ((r[6]! << 23) | (r[7]! << 16) | (r[8]! << 8) | r[9]!) >>> 0; // top bit clear: room to count up
    lastMs = ms;
  } else {
    seq = (seq + 1) >>> 0;
    if (seq === 0) lastMs++; // counter wrapped within a millisecond: borrow the next one
    ms = lastMs;
  }
  const b = [
    Math.floor(ms / 0x10000000000) & 0xff,
    Math.floor(ms / 0x100000000) & 0xff,
    (ms >>> 24) & 0xff,
    (ms >>> 16) & 0xff,
    (ms >>> 8) & 0xff,
    ms & 0xff,
    0x70 | ((seq >>> 28) & 0x0f), // version 7
    (seq >>> 20) & 0xff,
    0x80 | ((seq >>> 14) & 0x3f), // variant 10
    (seq >>> 6) & 0xff,
    ((seq << 2) & 0xff) | (r[10]! & 0x03),
    r[11]!,
    r[12]!,
    r[13]!,
    r[14]!,
    r[15]!,
  ].map((x) => HEX[x]!);
  return `${b[0]}${b[1]}${b[2]}${b[3]}-${b[4]}${b[5]}-${b[6]}${b[7]}-${b[8]}${b[9]}-${b[10]}${b[11]}${b[12]}${b[13]}${b[14]}${b[15]}`;
}

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
