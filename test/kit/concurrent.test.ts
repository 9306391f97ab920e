// payctl/testing is parallel by design: 200 node:test tests at once on one server, each
// with its own sandbox, sale, clock move and awaited webhook, all green. The wall time is
// reported (test output), never asserted; `npm run bench` measures the latencies.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { startPayctl, type Payctl } from '../../src/testing/index.js';
import { oneTest } from './concurrent.js';

const TESTS = 200;
let payctl: Payctl;
before(async () => {
  payctl = await startPayctl();
});
after(() => payctl.stop());

test(`${TESTS} concurrent tests, each with its own sandbox, sale, clock move and settled webhook`, { concurrency: TESTS }, async (t) => {
  const started = performance.now();
  const firsts: number[] = [];
  await Promise.all(
    Array.from({ length: TESTS }, (_, i) =>
      t.test(`test ${i + 1}`, async () => {
        firsts.push((await oneTest(payctl, 120_000)).firstWebhookMs);
      }),
    ),
  );
  assert.equal(firsts.length, TESTS);
  const sorted = firsts.sort((a, b) => a - b);
  t.diagnostic(`wall time ${Math.round(performance.now() - started)} ms for ${TESTS} tests; sandbox to first verified webhook: median ${Math.round(sorted[TESTS >> 1]!)} ms, max ${Math.round(sorted[TESTS - 1]!)} ms`);
});
