import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimits, SlidingWindow, PAY_RATE_LIMIT } from '../../src/http/rate-limit.js';
import { AppError } from '../../src/errors.js';

test('sliding window: at most N hits in any trailing window, no burst at a boundary', () => {
  const w = new SlidingWindow({ points: 3, durationMs: 60_000 });
  const at = (s: number) => w.hit('1.2.3.4', s * 1000);
  assert.equal(at(0).allowed, true);
  assert.equal(at(50).allowed, true);
  assert.equal(at(55).allowed, true);
  assert.equal(at(59).allowed, false);
  // A fixed window would open afresh at 60 s; here only the hit at 0 s has left.
  assert.equal(at(61).allowed, true);
  assert.equal(at(62).allowed, false);
  const refused = at(100);
  assert.equal(refused.allowed, false);
  assert.equal(refused.resetMs, 10_000); // the hit at 50 s leaves at 110 s
  assert.equal(at(111).allowed, true);
});

test('sliding window: addresses are counted apart', () => {
  const w = new SlidingWindow({ points: 1, durationMs: 1000 });
  assert.equal(w.hit('a', 0).allowed, true);
  assert.equal(w.hit('a', 1).allowed, false);
  assert.equal(w.hit('b', 1).allowed, true);
});

test('RateLimits: 429 with Retry-After and RateLimit headers once over the limit', async () => {
  let now = 0;
  const limits = new RateLimits({ payRateLimit: { points: 2, durationMs: 30_000 } }, () => now);
  const first = await limits.consume(PAY_RATE_LIMIT, 'x');
  assert.equal(first['RateLimit-Remaining'], '1');
  assert.equal(first['RateLimit-Limit'], '2');
  now = 5000;
  await limits.consume(PAY_RATE_LIMIT, 'x');
  now = 10_000;
  await assert.rejects(limits.consume(PAY_RATE_LIMIT, 'x'), (err: unknown) => {
    assert.ok(err instanceof AppError);
    assert.equal(err.status, 429);
    assert.equal(err.headers?.['Retry-After'], '20');
    assert.equal(err.headers?.['RateLimit-Remaining'], '0');
    return true;
  });
});
