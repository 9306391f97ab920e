// GET /metrics: off unless asked for; Prometheus text with route templates (never ids) as
// labels; a store outage shows in the figures (503s by route, store errors by cause,
// store_up 0). Both stores (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { refuseWrites } from '../helpers/store.js';
import { startServer } from '../../src/http/app.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ metrics: true });
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
