// Exact JSON integers (src/lib/exact-json.ts): a sum past 2^53 is written as its exact
// literal and read back as the same bigint; everything else is JSON.stringify/JSON.parse.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseJson, stringifyJson } from '../../src/lib/exact-json.js';
import { exactInt, exactSum, formatMoney, fromSplit, SPLIT } from '../../src/domain/money.js';

const big = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });

describe('exact JSON integers', () => {
  it('a bigint is written as its exact integer literal, and read back as the same value', () => {
    fc.assert(fc.property(big, fc.string(), (n, text) => {
      const value = { total_amount: exactInt(n), note: text, list: [exactInt(n), 1.5, null] };
      const json = stringifyJson(value);
      assert.ok(json.includes(`"total_amount":${n}`), json);
      const back = parseJson(json) as typeof value;
      assert.equal(BigInt(back.total_amount), n);
      assert.equal(back.note, text);
      assert.equal(back.list[1], 1.5);
    }), { numRuns: 300 });
  });

  it('without a bigint it is JSON.stringify, byte for byte; reading differs only where an integer literal is past 2^53 (exact, not rounded)', () => {
    const rounded = (v: unknown): unknown =>
      typeof v === 'bigint' ? Number(v) : Array.isArray(v) ? v.map(rounded) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)])) : v;
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const text = JSON.stringify(v);
      assert.equal(stringifyJson(v), text);
      assert.deepEqual(rounded(parseJson(text)), JSON.parse(text));
    }), { numRuns: 300 });
  });

  it('digits inside strings and safe long numbers are left alone', () => {
    assert.deepEqual(parseJson('{"a":"12345678901234567890","b":9007199254740991,"c":-9007199254740993}'), { a: '12345678901234567890', b: 9007199254740991, c: -9007199254740993n });
    assert.equal(stringifyJson({ n: 2n ** 64n }, 2), '{\n  "n": 18446744073709551616\n}');
  });
});

describe('exact sums', () => {
  it('halves recombine exactly (SQL truncating division), and sums of amounts up to 2^53-1 are exact', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), { maxLength: 50 }), (xs) => {
      const high = xs.reduce((n, x) => n + BigInt(Math.trunc(x / SPLIT)), 0n);
      const low = xs.reduce((n, x) => n + BigInt(x % SPLIT), 0n);
      const exact = xs.reduce((n, x) => n + BigInt(x), 0n);
      assert.equal(BigInt(fromSplit(String(high), String(low))), exact);
      assert.equal(BigInt(exactSum(xs)), exact);
    }), { numRuns: 300 });
    assert.equal(exactSum([2 ** 53 - 1, 2 ** 53 - 1, 2 ** 53 - 1]), 27021597764222973n);
  });

  it('money is formatted exactly past 2^53', () => {
    assert.equal(formatMoney(27021597764222973n), '$270,215,977,642,229.73');
    assert.equal(formatMoney(99_999_999_999), '$999,999,999.99');
  });
});
