// GET /metrics: off unless asked for; Prometheus text with route templates (never ids) as
// labels; a store outage shows in the figures (503s by route, store errors by cause,
// store_up 0); every figure docs/operations.md lists moves when its work happens (SSE clients,
// webhook attempts, their latency and the pending count, the write queue, catch-up jobs). Both stores (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { holdWrites, refuseWrites } from '../helpers/store.js';
import { startServer } from '../../src/http/app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';
import { sqliteWriteLock } from '../helpers/outage.js';

let s: TestServer;
before(async () => {
  // The clock route answers at once (202) while a long catch-up runs on: jobs_running can be seen.
  s = await startTestServer({ metrics: true, adminToken: ADMIN, env: { ...process.env, PAYCTL_CLOCK_ANSWER_MS: '0' } });
});
after(() => s.close());

const scrape = async (url = `${s.url}/metrics`) => {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return res.text();
};
/** The value of one series (`name{labels}` as Prometheus writes it), or undefined. */
const figure = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const sale = (orderId: string) =>
  s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { orderId }) });

test('requests by route template, method and status, never ids; events, the store and its writes', async () => {
  const made = await sale('metrics-1');
  assert.equal(made.status, 200, made.text);
  assert.equal((await s.call('GET', `/api/v1/groups/${s.demo.group_id}/transaction/${made.body.id}`, { key: s.demo.keys.manage_transactions })).status, 200);
  assert.equal((await s.call('GET', `/api/v1/no/such/${made.body.id}`)).status, 404);
  const text = await scrape();
  assert.equal(figure(text, 'payctl_http_requests_total{route="/api/v1/groups/:group_id/transaction",method="POST",status="200"}'), 1);
  assert.equal(figure(text, 'payctl_http_requests_total{route="/api/v1/groups/:group_id/transaction/:transaction_id",method="GET",status="200"}'), 1);
  assert.equal(figure(text, 'payctl_http_requests_total{route="(none)",method="GET",status="404"}'), 1);
  assert.equal(figure(text, 'payctl_http_request_duration_seconds_count{route="/api/v1/groups/:group_id/transaction",method="POST"}'), 1);
  assert.ok(!text.includes(made.body.id) && !text.includes(s.demo.group_id), 'no id in any label');
  assert.equal(figure(text, 'payctl_store_up'), 1);
  assert.ok(figure(text, 'payctl_events_appended_total')! >= 1, 'the sale appended its event');
  assert.ok(figure(text, 'payctl_store_write_duration_seconds_count')! >= 1);
  assert.equal(figure(text, 'payctl_store_write_queue'), 0);
  assert.equal(figure(text, 'payctl_sse_clients'), 0);
  assert.equal(figure(text, 'payctl_jobs_running{job="catch_up"}'), 0);
  assert.equal(figure(text, 'payctl_jobs_running{job="fork"}'), 0);
  assert.ok(text.includes('# TYPE payctl_webhook_attempts_total counter'));
  assert.ok(text.includes('# TYPE payctl_webhook_deliveries_pending gauge'));
  assert.ok(!text.includes('/metrics"'), 'a scrape is not a request figure');
});

test('a store refusing writes shows: 503s of the route, store errors by cause, store_up 0', async () => {
  await refuseWrites(s.p.db, s.dbPath, true);
  try {
    assert.equal((await sale('metrics-ro')).status, 503);
    const text = await scrape();
    assert.equal(figure(text, 'payctl_http_requests_total{route="/api/v1/groups/:group_id/transaction",method="POST",status="503"}'), 1);
    assert.equal(figure(text, 'payctl_store_errors_total{cause="read_only"}'), 1);
    assert.equal(figure(text, 'payctl_store_up'), 0);
  } finally {
    await refuseWrites(s.p.db, s.dbPath, false);
  }
  assert.equal((await sale('metrics-back')).status, 200);
  assert.equal(figure(await scrape(), 'payctl_store_up'), 1, 'back with the first request that reached it');
});

/** Scrape until `ok(value of series)` (figures kept elsewhere are read at the scrape; some lag). */
async function figureUntil(series: string, ok: (n: number | undefined) => boolean, ms = 20_000): Promise<number | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const n = figure(await scrape(), series);
    if (ok(n)) return n;
    if (Date.now() > until) assert.fail(`${series} stayed ${n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('each figure moves with its work: SSE clients, webhook attempts and latency, deliveries pending, the write queue, catch-up jobs', { timeout: 240_000 }, async () => {
  // An event stream open is an SSE client; closed, it is gone.
  const stream = new AbortController();
  const res = await fetch(`${s.url}/api/v1/groups/${s.demo.group_id}/events/stream`, { headers: { authorization: s.demo.keys.manage_webhooks }, signal: stream.signal });
  const reader = res.body!.getReader();
  await reader.read(); // the ready message: the stream is running
  assert.equal(await figureUntil('payctl_sse_clients', (n) => n === 1), 1);
  stream.abort();
  await reader.closed.catch(() => undefined);
  assert.equal(await figureUntil('payctl_sse_clients', (n) => n === 0), 0);

  // A receiver that fails every attempt: attempts counted as failed, timed, and the delivery stays pending.
  const receiver = await startReceiver(() => ({ status: 500, body: 'no' }));
  const endpoint = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/webhook_endpoints`, { key: s.demo.keys.manage_webhooks, body: { url: receiver.url, enabled_events: ['transaction.approved'] } });
  assert.equal(endpoint.status, 200, endpoint.text);
  try {
    const failedBefore = figure(await scrape(), 'payctl_webhook_attempts_total{outcome="failed"}') ?? 0;
    const timedBefore = figure(await scrape(), 'payctl_webhook_attempt_duration_seconds_count') ?? 0;
    assert.equal((await sale('metrics-hook')).status, 200);
    await receiver.waitFor(1);
    await figureUntil('payctl_webhook_attempts_total{outcome="failed"}', (n) => (n ?? 0) > failedBefore);
    await figureUntil('payctl_webhook_attempt_duration_seconds_count', (n) => (n ?? 0) > timedBefore);
    // Counted in the background at most every 10 s: a later scrape shows it.
    await figureUntil('payctl_webhook_deliveries_pending', (n) => (n ?? 0) >= 1, 25_000);
  } finally {
    await s.call('DELETE', `/api/v1/groups/${s.demo.group_id}/webhook_endpoints/${endpoint.body.id}`, { key: s.demo.keys.manage_webhooks });
    await receiver.close();
  }

  // Writes waiting for a store that holds them: the queue grows, and drains once it is released.
  // (SQLite: another connection's BEGIN IMMEDIATE, so the lock is held from the start; PostgreSQL: the event log locked.)
  const lock = s.p.db.dialect.name === 'sqlite' ? await sqliteWriteLock(s.dbPath) : undefined;
  const hold = lock ? { release: () => new Promise<void>((resolve) => lock.exec('ROLLBACK', () => lock.close(() => resolve()))) } : await holdWrites(s.dbPath);
  let sales: Array<Promise<{ status: number }>> = [];
  try {
    // The first writes take the writer (SQLite's batch, PostgreSQL's lanes) and wait at the held lock; the later ones queue.
    // (PostgreSQL opens a lane beside a running one for the writes that waited PAYCTL_PG_LANE_WAIT_MS:
    // sales in waves take its lanes one by one, until every lane waits and a wave stays queued.)
    sales = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => sale(`metrics-held-${i}`));
    await new Promise((r) => setTimeout(r, 300));
    for (let wave = 1; wave <= 8 && (figure(await scrape(), 'payctl_store_write_queue') ?? 0) < 1; wave++) {
      sales.push(sale(`metrics-queued-${wave}`));
      await new Promise((r) => setTimeout(r, 200));
    }
    await figureUntil('payctl_store_write_queue', (n) => (n ?? 0) >= 1, 8_000);
  } finally {
    await hold.release();
  }
  for (const r of await Promise.all(sales)) assert.equal(r.status, 200);
  assert.equal(await figureUntil('payctl_store_write_queue', (n) => n === 0), 0);

  // A long clock move runs on as a catch-up job after its 202.
  const sb = await newSandbox(s, { clock: '2030-01-01T00:00:00Z' });
  const recurring = `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/recurring`;
  const plan = await s.call('POST', `${recurring}/plans`, { key: sb.keys.manage_transactions, body: { name: 'Daily', amount: 700, billing_cycle: 'daily', duration: 0 } });
  const customer = await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Catch', last_name: 'Up' } });
  const sub = await s.call('POST', `${recurring}/subscription`, { key: sb.keys.manage_transactions, body: { plan_id: plan.body.id, customer_id: customer.body.id, payment_details: { token: 'tok_visa' } } });
  assert.equal(sub.status, 200, sub.text);
  const moved = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: sb.keys.manage_transactions, body: { advance: '10d' } });
  assert.equal(moved.status, 202, moved.text);
  assert.equal(figure(await scrape(), 'payctl_jobs_running{job="catch_up"}'), 1);
  assert.equal(await figureUntil('payctl_jobs_running{job="catch_up"}', (n) => n === 0, 120_000), 0);
});

// Last: closing a second server on this platform stops the platform's delivery loop (one per database).
test('off unless asked for; --metrics-port serves it on a port of its own only', async () => {
  const plain = await startServer({ platform: s.p, port: 0, tickMs: 0, accessLog: 'off' });
  try {
    assert.equal((await fetch(`${plain.url}/metrics`)).status, 404);
    assert.equal(plain.metricsUrl, undefined);
  } finally {
    await plain.close();
  }
  const own = await startServer({ platform: s.p, port: 0, tickMs: 0, accessLog: 'off', metrics: 0 });
  try {
    assert.equal((await fetch(`${own.url}/metrics`)).status, 404, 'not on the API port');
    assert.notEqual(new URL(own.metricsUrl!).port, new URL(own.url).port);
    assert.match(await scrape(own.metricsUrl), /^# HELP payctl_/m);
    assert.equal((await fetch(own.metricsUrl!.replace('/metrics', '/other'))).status, 404);
  } finally {
    await own.close();
  }
});
