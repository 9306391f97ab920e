import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectBrand, luhnValid, routingNumberValid } from '../../src/processor/cards.js';
import { testCards } from '../../src/processor/test-cards.js';
import { sha256 } from '../../src/lib/hash.js';

test('every test card passes Luhn and has the brand it claims', () => {
  for (const card of testCards().cards) {
    assert.equal(luhnValid(card.number), true, card.number);
    assert.equal(detectBrand(card.number), card.brand, card.number);
  }
});

test('Luhn rejects a changed digit, letters and short numbers', () => {
  assert.equal(luhnValid('4111111111111112'), false);
  assert.equal(luhnValid('41111111111a1111'), false);
  assert.equal(luhnValid('4111'), false);
});

test('brand detection', () => {
  assert.equal(detectBrand('4012888888881881'), 'Visa');
  assert.equal(detectBrand('2223003122003222'), 'Mastercard');
  assert.equal(detectBrand('371449635398431'), 'American Express');
  assert.equal(detectBrand('6011000990139424'), 'Discover');
  assert.equal(detectBrand('9999999999999995'), undefined);
});

test('routing numbers use the ABA checksum', () => {
  assert.equal(routingNumberValid('110000000'), true);
  assert.equal(routingNumberValid('021000021'), true);
  assert.equal(routingNumberValid('021000022'), false);
  assert.equal(routingNumberValid('12345'), false);
});

test('key hashing is SHA-256 hex and deterministic', () => {
  assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.notEqual(sha256('sk_test_a'), sha256('sk_test_b'));
});
