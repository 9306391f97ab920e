// Hostile money and time, at volume, against the real server (kept out of `npm test`):
// fast-check throws generated instants (valid, impossible, odd offsets, widths, years at
// and past 1970/9999) at every field that takes one, and amounts at and past every bound
// at the money fields, while a second group keeps making sales. Asserted: no 5xx, every
// refusal a 400 naming its field, every stored instant in the 24-character UTC form, the
// reporting sums equal to the BigInt sum of the rows, and the other group's sales answered
// throughout (their latency is reported, not asserted: speed belongs to the benchmarks).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { report } from '../helpers/report.js';

const RUNS = Number(process.env.MONEY_TIME_RUNS ?? 300);
let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** Instant-like text: plausible fields, some out of range, some the wrong width. */
const instantText = fc
  .record({
    y: fc.oneof(fc.integer({ min: 1960, max: 2100 }), fc.constantFrom(1969, 1970, 9998, 9999, 10000, 0)),
    mo: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    h: fc.integer({ min: 0, max: 25 }),
    mi: fc.integer({ min: 0, max: 61 }),
    sec: fc.integer({ min: 0, max: 61 }),
    frac: fc.constantFrom('', '.5', '.123', '.123456789', '.1234567890'),
    zone: fc.constantFrom('Z', 'z', '+00:00', '-23:59', '+23:59', '+24:00', '+05:30', '', '+0530'),
    dateOnly: fc.boolean(),
  })
  .map((p) => (p.dateOnly ? `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}` : `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}:${pad(p.sec)}${p.frac}${p.zone}`));
const amountValue = fc.oneof(
  fc.integer({ min: 0, max: 99_999_999_999 }),
  fc.constantFrom(99_999_999_999, 100_000_000_000, 2 ** 53 - 1, 2 ** 53, -1, 0),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map((b) => Number(b)),
);

test('hostile instants and amounts: no 5xx, refusals name their field, stored instants fixed width, sums exact', async () => {
  const sb = await newSandbox(s, { demo: true });
  const other = await newSandbox(s);
  let stop = false;
  const latencies: number[] = [];
  const background = (async () => {
    while (!stop) {
      const t0 = performance.now();
      const r = await s.call('POST', `/api/v1/groups/${other.group_id}/transaction`, { key: other.keys.manage_transactions, body: saleBody(other.processor_id) });
      latencies.push(performance.now() - t0);
      assert.equal(r.status, 200, r.text);
    }
  })();

  const tally = { requests: 0, accepted: 0, refused: 0 };
  const check = (r: { status: number; text: string; body: any }, field: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    tally.requests++;
    assert.ok(r.status < 500, `${field}: ${r.status} ${r.text}`);
    if (r.status === 400) {
      tally.refused++;
      assert.ok((r.body.error.fields ?? []).some((f: { path: string }) => f.path === field || f.path.startsWith(`${field}.`) || field.startsWith(f.path)), `${field} not named: ${r.text}`);
    } else tally.accepted++;
  };
  const base = `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}`;
  await fc.assert(fc.asyncProperty(instantText, amountValue, async (when, amount) => {
    check(await s.call('POST', `/api/v1/groups/${sb.group_id}/payment-links`, { key: sb.keys.manage_transactions, body: { amount: 500, description: 'x', expires_at: when } }), 'expires_at');
    check(await s.call('GET', `${base}/transactions/reporting?type=count&start=${encodeURIComponent(when)}`, { key: sb.keys.view_transactions }), 'start');
    check(await s.call('GET', `/api/v1/groups/${sb.group_id}/events?created_from=${encodeURIComponent(when)}`, { key: sb.keys.view_transactions }), 'created_from');
    check(await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { set: when } }), 'set');
    check(await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, { amount }) }), 'amounts.requested_amount');
  }), { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 23) });
  stop = true;
  await background;

  // Every instant stored in the sandbox's rows, as the store reads it back: the 24-character UTC form
  // (checked here, not in SQL: a PostgreSQL column of instants need not be text).
  for (const [table, column] of [['transactions', 'created_at'], ['payment_links', 'expires_at'], ['events', 'created_at']] as const) {
    const values = await s.p.db.all<{ v: unknown }>(`SELECT ${column} AS v FROM ${table} WHERE group_id = ? AND ${column} IS NOT NULL`, [sb.group_id]);
    const bad = values.filter((r) => typeof r.v !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.v));
    assert.deepEqual(bad, [], `${table}.${column}`);
  }
  // amount_sum over everything equals the BigInt sum of the rows.
  const rows = await s.p.db.all<{ c: number; r: number }>("SELECT captured_amount AS c, refunded_amount AS r FROM transactions WHERE group_id = ? AND status IN ('pending', 'settled', 'captured', 'partially_captured', 'partially_refunded', 'refunded')", [sb.group_id]);
  const expected = rows.reduce((n, x) => n + BigInt(x.c) - BigInt(x.r), 0n);
  const sum = await s.call('GET', `${base}/transactions/reporting?type=amount_sum&start=1970-01-01`, { key: sb.keys.view_transactions });
  assert.equal(sum.status, 200, sum.text);
  assert.equal(BigInt(/"total_amount":(-?\d+)/.exec(sum.text)![1]!), expected);

  latencies.sort((a, b) => a - b);
  report('money-time-hostile', {
    ...tally,
    other_group_sales: latencies.length,
    other_group_p50_ms: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
    other_group_p99_ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
  });
});
