import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors.js';
import {
  monthsBefore,
  netAmount,
  normalizeReportQuery,
  parseReportQuery,
  parseRfc3339,
  NET_AMOUNT_STATUSES,
} from '../../src/domain/reporting.js';
import { STATUSES } from '../../src/domain/transactions.js';

const NOW = new Date('2026-08-31T10:20:30.456Z');

test('the three array encodings fold into one list; empty items are dropped', () => {
  const { value, problems } = normalizeReportQuery({
    type: 'count',
    statuses: ['settled', 'pending,declined'],
    'statuses[]': 'voided',
    'brands[]': ['Visa', ''],
    customer_ids: ' , ',
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(value, { type: 'count', statuses: ['settled', 'pending', 'declined', 'voided'], brands: ['Visa'], customer_ids: [] });
});

test('scalar parameters once only; unknown parameters named', () => {
  const { problems } = normalizeReportQuery({ type: ['table', 'count'], 'limit[]': '5', status: 'settled' });
  assert.deepEqual(problems, [
    { path: 'type', message: 'must be given once' },
    { path: 'limit[]', message: 'takes one value, not a list' },
    { path: 'status', message: 'is not a query parameter of this endpoint: did you mean statuses?' },
  ]);
});

test('defaults: limit 50, offset 0, the window is the 6 months up to now', () => {
  const q = parseReportQuery({ type: 'table' }, NOW);
  assert.deepEqual(q, { type: 'table', limit: 50, offset: 0, start: '2026-02-28T10:20:30.456Z', end: NOW.toISOString(), filters: {} });
});

test('6 months before: calendar months, the day clamped to the shorter month', () => {
  const cases: Array<[string, string]> = [
    ['2026-08-31T10:20:30.456Z', '2026-02-28T10:20:30.456Z'],
    ['2028-08-31T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['2026-03-15T12:00:00.000Z', '2025-09-15T12:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-06-30T23:59:59.999Z'],
  ];
  for (const [from, want] of cases) assert.equal(monthsBefore(new Date(from), 6).toISOString(), want, from);
});

test('RFC 3339 times: zones, fractions, a date alone; impossible dates refused', () => {
  const ok: Array<[string, string]> = [
    ['2026-01-31T00:00:00Z', '2026-01-31T00:00:00.000Z'],
    ['2026-01-31t10:00:00.5z', '2026-01-31T10:00:00.500Z'],
    ['2026-01-31T10:00:00.123456+02:00', '2026-01-31T08:00:00.123Z'],
    ['2026-01-31T10:00:00 02:00', '2026-01-31T08:00:00.000Z'], // an unencoded + read back
    ['2026-01-31T10:00:00-05:30', '2026-01-31T15:30:00.000Z'],
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
  ];
  for (const [text, want] of ok) assert.equal(parseRfc3339(text), want, text);
  for (const bad of ['2026-02-29', '2026-13-01', '2026-01-32T00:00:00Z', '2026-01-31T24:00:00Z', '2026-01-31T10:00:00', '2026-01-31T10:00Z', 'yesterday', '1700000000', '2026-01-31T10:00:00+25:00']) {
    assert.equal(parseRfc3339(bad), undefined, bad);
  }
});

test('a bad query is one 400 naming every bad parameter and value', () => {
  try {
    parseReportQuery({ type: 'sum', limit: '1001', statuses: 'settled,nope', customer_ids: 'x', start: '2026-02-30' }, NOW);
    assert.fail('should throw');
  } catch (err) {
    assert.ok(err instanceof AppError);
    assert.equal(err.status, 400);
    const paths = err.fields!.map((f) => f.path).sort();
    assert.deepEqual(paths, ['customer_ids.0', 'limit', 'start', 'statuses.1', 'type']);
    assert.match(err.fields!.find((f) => f.path === 'statuses.1')!.message, /"nope" is not a transaction status/);
  }
});

test('net amount per status: captured − refunded where money moved, else 0', () => {
  const moved = ['pending', 'settled', 'captured', 'partially_captured', 'partially_refunded', 'refunded'];
  for (const status of STATUSES) {
    const want = moved.includes(status) ? 700 : 0;
    assert.equal(netAmount({ status, captured_amount: 1000, refunded_amount: 300 }), want, status);
  }
  assert.equal(netAmount({ status: 'refunded', captured_amount: 1000, refunded_amount: 1000 }), 0);
  assert.equal(netAmount({ status: 'voided', captured_amount: 1000, refunded_amount: 0 }), 0);
  assert.deepEqual([...NET_AMOUNT_STATUSES].sort(), [...moved].sort());
});
