import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bankAccountText, cardText, dateTime, money, moneyWithCents, paymentMethodText } from '../../src/render/format.js';

test('a card is shown one way: brand and last four', () => {
  assert.equal(cardText({ brand: 'Visa', last_four: '1111' }), 'Visa …1111');
  assert.equal(cardText({ brand: 'American Express', last_four: '0005' }), 'American Express …0005');
  assert.equal(bankAccountText({ account_type: 'checking', last_four: '6789' }), 'ACH checking …6789');
  assert.equal(bankAccountText({ last_four: '6789' }), 'ACH …6789');
  assert.equal(paymentMethodText({ card: { brand: 'Mastercard', last_four: '4444' } }, 'card'), 'Mastercard …4444');
  assert.equal(paymentMethodText({ bank_account: { account_type: 'savings', last_four: '1234' } }, 'ach'), 'ACH savings …1234');
  assert.equal(paymentMethodText({}, 'wallet'), 'wallet');
});

test('money is dollars and cents, with the cents count where asked', () => {
  const table: Array<[number, string, string]> = [
    [0, '$0.00', '$0.00 (0 cents)'],
    [5, '$0.05', '$0.05 (5 cents)'],
    [1234, '$12.34', '$12.34 (1234 cents)'],
    [123456789, '$1,234,567.89', '$1,234,567.89 (123456789 cents)'],
  ];
  for (const [cents, plain, withCents] of table) {
    assert.equal(money(cents), plain);
    assert.equal(moneyWithCents(cents), withCents);
  }
});

test('a point in time is shown in local time with its zone; text that is not a time is kept', () => {
  const tz = process.env.TZ;
  try {
    process.env.TZ = 'UTC';
    assert.equal(dateTime('2026-06-30T12:00:00.000Z'), '2026-06-30 12:00 UTC');
    process.env.TZ = 'America/New_York';
    assert.equal(dateTime('2026-06-30T12:00:00.000Z'), '2026-06-30 08:00 EDT');
    assert.equal(dateTime('2026-01-01T03:30:00.000Z'), '2025-12-31 22:30 EST', 'the local day, not the UTC one');
    process.env.TZ = 'Asia/Kolkata';
    assert.match(dateTime('2026-06-30T12:00:00.000Z'), /^2026-06-30 17:30 (GMT\+5:30|IST)$/);
  } finally {
    process.env.TZ = tz;
  }
  assert.equal(dateTime('not a time'), 'not a time');
});
