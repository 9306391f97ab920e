// `wait` on the lists (docs/testing.md, "Wait, don't poll"), against the real server: the
// answer comes once `count` matching items exist, woken by the writes that make them; at
// the deadline it is a 200 with what there is, never later; bad values are a 400 naming
// `wait` or `count`; a client that goes away leaves no waiting request behind.
import '../helpers/env.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, noonToday, type SandboxReply } from '../helpers/sandboxes.js';
import { waitingRequests } from '../../src/services/long-poll.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const events = (g: string) => `/api/v1/groups/${g}/events`;
const customer = (sb: SandboxReply, n: number) =>
  s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Ada', last_name: `Lovelace ${n}` } });

/** Resolves once the server holds `n` waiting requests (bounded: a few seconds at most). */
async function waitersReach(n: number): Promise<void> {
  const until = Date.now() + 5_000;
  while (waitingRequests() !== n) {
    if (Date.now() > until) assert.fail(`expected ${n} waiting requests, the server holds ${waitingRequests()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('wait on the events list', () => {
  test('answers as soon as count matching events exist, woken by their commits', async () => {
    const sb = await newSandbox(s, { clock: noonToday() });
    const key = sb.keys.manage_customers!;
    const started = Date.now();
    const waiting = s.call('GET', `${events(sb.group_id)}?types=customer.created&wait=30s&count=2`, { key });
    await waitersReach(1);
    // One is not enough: the request still waits (checked below by what it answers).
    await customer(sb, 1);
    await customer(sb, 2);
    const r = await waiting;
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data.items.map((e: { type: string }) => e.type), ['customer.created', 'customer.created']);
    assert.ok(Date.now() - started < 30_000, 'answered before the deadline');
    assert.equal(waitingRequests(), 0);
  });

  test('events of other types do not end the wait; the deadline answers 200 with what there is, on time', async () => {
    const sb = await newSandbox(s, { clock: noonToday() });
    const started = Date.now();
    const waiting = s.call('GET', `${events(sb.group_id)}?types=transaction.settled&wait=1500ms`, { key: sb.keys.manage_webhooks! });
    await waitersReach(1);
    await customer(sb, 1);
    const r = await waiting;
    const took = Date.now() - started;
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data, { items: [], has_more: false });
    assert.ok(took >= 1500, `waited the whole 1.5 s (${took} ms)`);
    assert.ok(took < 1500 + 5_000, `never long past the deadline (${took} ms)`);
  });

  test('items that already exist answer at once; without wait it reads once', async () => {
    const sb = await newSandbox(s, { clock: noonToday() });
    await customer(sb, 1);
    const r = await s.call('GET', `${events(sb.group_id)}?types=customer.*&wait=30s`, { key: sb.keys.manage_customers! });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.items.length, 1);
    const none = await s.call('GET', `${events(sb.group_id)}?types=transaction.*`, { key: sb.keys.manage_webhooks! });
    assert.deepEqual(none.body.data.items, []);
  });

  test('a client that goes away ends its wait on the server', async () => {
    const sb = await newSandbox(s, { clock: noonToday() });
    const ac = new AbortController();
    const waiting = fetch(`${s.url}${events(sb.group_id)}?wait=30s`, { headers: { authorization: sb.keys.manage_webhooks! }, signal: ac.signal });
    await waitersReach(1);
    ac.abort();
    await assert.rejects(waiting);
    await waitersReach(0);
  });
});

describe('bad values are a 400 naming the parameter', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['wait=soon', 'wait', /duration/],
    ['wait=31s', 'wait', /at most 30s/],
    ['wait=5', 'wait', /duration/],
    ['wait=-1s', 'wait', /duration/],
    ['wait=5s&count=0', 'count', /at least 1/],
    ['wait=5s&count=51', 'count', /at most limit \(50\)/],
    ['wait=5s&count=3&limit=2', 'count', /at most limit \(2\)/],
  ];
  for (const [query, field, message] of cases) {
    test(`${query}: ${field}`, async () => {
      const sb = await newSandbox(s);
      const lists = [
        { path: `${events(sb.group_id)}?${query}`, key: sb.keys.manage_webhooks! },
        { path: `/api/v1/sandboxes/${sb.group_id}/inbox?${query}`, key: ADMIN },
      ];
      for (const l of lists) {
        const r = await s.call('GET', l.path, { key: l.key });
        assert.equal(r.status, 400, `${l.path}: ${r.text}`);
        assert.equal(r.body.error.type, 'validation_error');
        const f = r.body.error.fields.find((x: { path: string }) => x.path === field);
        assert.ok(f, `${l.path}: names ${field}: ${r.text}`);
        assert.match(f.message, message);
      }
    });
  }
});

test('wait on the delivery attempts of an endpoint: answered when its first attempt is recorded', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const key = sb.keys.manage_webhooks!;
  const hooks = `/api/v1/groups/${sb.group_id}/webhook_endpoints`;
  const endpoint = await s.call('POST', hooks, { key, body: { kind: 'collect', enabled_events: ['customer.*'] } });
  assert.equal(endpoint.status, 200, endpoint.text);
  const bad = await s.call('GET', `${hooks}/${endpoint.body.id}/deliveries?wait=forever`, { key });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.fields[0].path, 'wait');
  const waiting = s.call('GET', `${hooks}/${endpoint.body.id}/deliveries?wait=30s`, { key });
  await waitersReach(1);
  await customer(sb, 1);
  const r = await waiting;
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.items.length, 1);
  assert.equal(r.body.data.items[0].status, 'succeeded');
  assert.equal(r.body.data.items[0].event_type, 'customer.created');
});

test('a server shutting down answers its waiting requests at once, with what there is', async () => {
  const own = await startTestServer({ adminToken: ADMIN });
  const r = await own.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: {} });
  const waiting = own.call('GET', `${events(r.body.group_id)}?types=transaction.*&wait=30s`, { key: r.body.keys.manage_webhooks });
  await waitersReach(1);
  const started = Date.now();
  await own.close(); // drains in-flight requests: the wait must not hold it for 30 s
  const answer = await waiting;
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body.data.items, []);
  assert.ok(Date.now() - started < 15_000, `closed in ${Date.now() - started} ms, not at the wait's deadline`);
});
