import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureOutcome, refundOutcome, type CaptureRequest } from '../../src/domain/transaction-transitions.js';
import { AppError } from '../../src/errors.js';

const auth = { status: 'authorized', authorized_amount: 1000, processor_id: 'proc-1' };

const captures: Array<[string, Partial<typeof auth>, CaptureRequest, { amount: number; status: string } | RegExp]> = [
  ['B with the authorized amount', {}, { kind: 'exact', amount: 1000, path: 'amount' }, { amount: 1000, status: 'captured' }],
  ['B with less', {}, { kind: 'exact', amount: 999, path: 'amount' }, /^400 validation_error amount: must equal the authorized amount \(1000\)$/],
  ['B with more', {}, { kind: 'exact', amount: 1001, path: 'amount' }, /^400 validation_error amount: must equal/],
  ['A (or the CLI) without an amount: all of it', {}, { kind: 'up_to', path: 'amount' }, { amount: 1000, status: 'captured' }],
  ['A with the authorized amount', {}, { kind: 'up_to', amount: 1000, processor_id: 'proc-1', path: 'amounts.captured_amount' }, { amount: 1000, status: 'captured' }],
  ['A with part of it', {}, { kind: 'up_to', amount: 1, processor_id: 'proc-1', path: 'amounts.captured_amount' }, { amount: 1, status: 'partially_captured' }],
  ['A above the authorized amount', {}, { kind: 'up_to', amount: 1001, path: 'amounts.captured_amount' }, /^400 validation_error amounts\.captured_amount: must not exceed the authorized amount \(1000\)$/],
  ['A with zero', {}, { kind: 'up_to', amount: 0, path: 'amounts.requested_amount' }, /^400 validation_error amounts\.requested_amount: must be at least 1 cent$/],
  ['A naming another processor', {}, { kind: 'up_to', amount: 5, processor_id: 'proc-2', path: 'amount' }, /^400 validation_error processor_id: must be the processor/],
  ['an already captured transaction', { status: 'captured' }, { kind: 'up_to', path: 'amount' }, /^400 invalid_request only an authorized transaction can be captured; this one is captured$/],
  ['a voided transaction', { status: 'voided' }, { kind: 'exact', amount: 1000, path: 'amount' }, /^400 invalid_request .* this one is voided$/],
  ['a status check comes before the amount check', { status: 'expired' }, { kind: 'up_to', amount: 5000, path: 'amount' }, /invalid_request .* this one is expired/],
];

const outcomeOf = (fn: () => unknown): unknown => {
  try {
    return fn();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return `${err.status} ${err.type} ${err.message}`;
  }
};

for (const [name, state, req, expected] of captures) {
  test(`capture: ${name}`, () => {
    const got = outcomeOf(() => captureOutcome({ ...auth, ...state }, req));
    if (expected instanceof RegExp) assert.match(String(got), expected);
    else assert.deepEqual(got, expected);
  });
}

const settled = { status: 'settled', captured_amount: 1000, refunded_amount: 0 };
const refunds: Array<[string, Partial<typeof settled>, number | undefined, { amount: number } | RegExp]> = [
  ['all of a settled transaction', {}, undefined, { amount: 1000 }],
  ['part of it', {}, 250, { amount: 250 }],
  ['the rest of a partially refunded one', { status: 'partially_refunded', refunded_amount: 250 }, undefined, { amount: 750 }],
  ['exactly what is left', { status: 'partially_refunded', refunded_amount: 250 }, 750, { amount: 750 }],
  ['more than is left', { status: 'partially_refunded', refunded_amount: 250 }, 751, /^400 invalid_request refund of 751 exceeds the 750 left to refund$/],
  ['a pending transaction', { status: 'pending' }, undefined, /^400 invalid_request only a settled transaction can be refunded; this one is pending \(void it instead/],
  ['a fully refunded one', { status: 'refunded', refunded_amount: 1000 }, 1, /this one is refunded/],
];

for (const [name, state, amount, expected] of refunds) {
  test(`refund: ${name}`, () => {
    const got = outcomeOf(() => refundOutcome({ ...settled, ...state }, amount));
    if (expected instanceof RegExp) assert.match(String(got), expected);
    else assert.deepEqual(got, expected);
  });
}
