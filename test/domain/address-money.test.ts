import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardBillingAddress, looseBillingAddress, saleBillingAddress, payLinkBillingAddress, isSaleCountry } from '../../src/domain/address.js';
import { amount, booleanLoose, formatMoney, parseMoney, uint64, uint64Loose } from '../../src/domain/money.js';
import { fieldsFromZod } from '../../src/errors.js';

const base = {
  first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield',
  subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com',
};

function problems(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : fieldsFromZod(r.error as never).map((f) => f.path);
}

// The spec's Limits table, one row per bound, both sides of each.
const saleCases: Array<[string, Record<string, unknown>, string[]]> = [
  ['valid US address', {}, []],
  ['first_name 64 ok', { first_name: 'a'.repeat(64) }, []],
  ['first_name 65 too long', { first_name: 'a'.repeat(65) }, ['first_name']],
  ['last_name 65 too long', { last_name: 'a'.repeat(65) }, ['last_name']],
  ['line_1 60 ok', { line_1: 'a'.repeat(60) }, []],
  ['line_1 61 too long', { line_1: 'a'.repeat(61) }, ['line_1']],
  ['line_2 32 ok', { line_2: 'a'.repeat(32) }, []],
  ['line_2 33 too long', { line_2: 'a'.repeat(33) }, ['line_2']],
  ['city 24 ok', { city: 'a'.repeat(24) }, []],
  ['city 25 too long', { city: 'a'.repeat(25) }, ['city']],
  ['email 100 ok', { email: `${'a'.repeat(88)}@example.com` }, []],
  ['email 101 too long', { email: `${'a'.repeat(89)}@example.com` }, ['email']],
  ['email bad format', { email: 'not-an-email' }, ['email']],
  ['country 3 chars', { country: 'USA' }, ['country']],
  ['subdivision 1 char', { subdivision: 'I' }, ['subdivision']],
  ['subdivision 3 ok', { subdivision: 'ONT', country: 'CA', postal_code: 'K1A 0B1' }, []],
  ['subdivision 4 chars', { subdivision: 'ABCD' }, ['subdivision']],
  ['US postal 4', { postal_code: '6270' }, ['postal_code']],
  ['US postal 6', { postal_code: '627011' }, ['postal_code']],
  ['US postal 10 (ZIP+4) refused: exactly 5 for US', { postal_code: '62701-1234' }, ['postal_code']],
  ['CA postal 7 ok', { country: 'CA', subdivision: 'ON', postal_code: 'K1A 0B1' }, []],
  ['CA postal 4 too short', { country: 'CA', subdivision: 'ON', postal_code: 'K1A0' }, ['postal_code']],
  ['CA postal 11 too long', { country: 'CA', subdivision: 'ON', postal_code: 'K1A 0B1 123' }, ['postal_code']],
  ['missing city', { city: undefined }, ['city']],
  ['unknown field', { status: 'x' }, ['status']],
];

for (const [name, patch, expected] of saleCases) {
  test(`sale billing address: ${name}`, () => {
    assert.deepEqual(problems(saleBillingAddress, { ...base, ...patch }), expected);
  });
}

test('pay-link billing accepts optional phone and company', () => {
  assert.deepEqual(problems(payLinkBillingAddress, { ...base, phone: '5555550100', company: 'ACME' }), []);
});

const looseCases: Array<[string, string, boolean]> = [
  ['1 char', '1', true], ['10 chars', '1234567890', true], ['11 chars', '12345678901', false],
  ['single space inside', 'K1A 0B1', true], ['hyphen inside', '62701-1234', true],
  ['double space', 'K1A  0B1', false], ['leading hyphen', '-1234', false], ['trailing space', '1234 ', false],
  ['other punctuation', '12.34', false], ['empty', '', false],
];
for (const [name, postal, ok] of looseCases) {
  test(`capture/subscription postal code: ${name}`, () => {
    assert.equal(problems(looseBillingAddress, { ...base, postal_code: postal }).length === 0, ok);
  });
}

test('add-card billing address has no names and keeps the US rule', () => {
  const card = { line_1: '1 Main', city: 'X', subdivision: 'IL', postal_code: '62701', country: 'US' };
  assert.deepEqual(problems(cardBillingAddress, card), []);
  assert.deepEqual(problems(cardBillingAddress, { ...card, postal_code: '627012' }), ['postal_code']);
  assert.deepEqual(problems(cardBillingAddress, { ...card, first_name: 'A' }), ['first_name']);
});

test('sale countries are US, CA, UK (and GB)', () => {
  for (const c of ['US', 'CA', 'UK', 'GB', 'us']) assert.equal(isSaleCountry(c), true, c);
  for (const c of ['DE', 'FR', 'MX']) assert.equal(isSaleCountry(c), false, c);
});

const amountCases: Array<[unknown, boolean]> = [
  [0, true], [1, true], [9007199254740991, true], [-1, false], [1.5, false], ['100', false],
  [1e21, false], [2 ** 64, false], [null, false], [true, false],
];
for (const [value, ok] of amountCases) {
  test(`uint64 whole number ${JSON.stringify(value)} → ${ok ? 'accepted' : 'refused'}`, () => {
    assert.equal(uint64.safeParse(value).success, ok);
  });
}

// docs/decisions.md#amounts: an amount is 0..99,999,999,999.
const moneyCases: Array<[unknown, boolean]> = [
  [0, true], [99_999_999_999, true], [100_000_000_000, false], [9007199254740991, false], [-1, false], [1.5, false], ['100', false],
];
for (const [value, ok] of moneyCases) {
  test(`amount ${JSON.stringify(value)} → ${ok ? 'accepted' : 'refused'}`, () => {
    assert.equal(amount.safeParse(value).success, ok);
  });
}

test('uint64Loose accepts digit strings as numbers and nothing else', () => {
  assert.equal(uint64Loose.parse('12'), 12);
  assert.equal(uint64Loose.parse(12), 12);
  for (const bad of ['-1', '1.5', '1e3', '', 'abc', -1, 1.5]) assert.equal(uint64Loose.safeParse(bad).success, false, String(bad));
  assert.equal(booleanLoose.parse('true'), true);
  assert.equal(booleanLoose.parse(false), false);
  assert.equal(booleanLoose.safeParse('yes').success, false);
});

test('money parsing and formatting', () => {
  assert.equal(parseMoney('12.34'), 1234);
  assert.equal(parseMoney('12'), 1200);
  assert.equal(parseMoney('0.5'), 50);
  assert.throws(() => parseMoney('12.345'));
  assert.throws(() => parseMoney('-1'));
  assert.throws(() => parseMoney('abc'));
  assert.equal(formatMoney(123456), '$1,234.56');
  assert.equal(formatMoney(5), '$0.05');
  assert.equal(formatMoney(-250), '-$2.50');
});

test('a missing sale country or subdivision says the rule, as the other required fields do', () => {
  const { country, subdivision, ...rest } = base;
  void country;
  void subdivision;
  const r = saleBillingAddress.safeParse(rest);
  assert.equal(r.success, false);
  const fields = fieldsFromZod(r.error as never);
  for (const path of ['country', 'subdivision']) {
    assert.deepEqual(fields.filter((f) => f.path === path).map((f) => f.message), ['is required and must be a string'], path);
  }
});
