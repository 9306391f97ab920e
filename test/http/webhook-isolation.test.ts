// Webhook delivery isolated per endpoint, through the real server's delivery loop: for
// each hostile receiver (hangs, trickles a byte a second, endless headers, endless
// trailers, huge body, closes mid-answer, redirects) in one sandbox, another sandbox's
// delivery arrives and is recorded while the hostile receiver still holds its request
// (ordering, not wall-clock thresholds); then the hostile attempt is recorded as failed
// with the reason, within the attempt's bound. A hanging endpoint with a backlog holds at
// most ENDPOINT_CONCURRENCY attempts at once, and its group's other endpoint and other
// groups are served meanwhile. The lease is short here (5 s: an attempt gets about 4.5 s).
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { behaviours, startHostile, type Behaviour } from '../helpers/hostile-receiver.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { deliveriesSettled } from '../../src/services/webhooks/delivery-loop.js';
import { ENDPOINT_CONCURRENCY } from '../../src/domain/webhooks.js';

const LEASE_MS = 5_000;
let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { PAYCTL_WEBHOOK_LEASE_MS: String(LEASE_MS) } });
});
after(async () => {
  await s.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function endpoint(sb: SandboxReply, url: string): Promise<string> {
  const r = await s.call('POST', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, { key: sb.keys.manage_webhooks, body: { url, enabled_events: ['customer.created'] } });
  assert.equal(r.status, 200, r.text);
  return r.body.id as string;
}

async function customer(sb: SandboxReply, n = 0): Promise<void> {
  const r = await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: `C${n}`, last_name: 'Isolated' } });
  assert.equal(r.status, 200, r.text);
}

async function attempts(sb: SandboxReply, endpointId: string): Promise<Json[]> {
  const r = await s.call('GET', `/api/v1/groups/${sb.group_id}/webhook_endpoints/${endpointId}/deliveries?limit=100`, { key: sb.keys.manage_webhooks });
  assert.equal(r.status, 200, r.text);
  return r.body.data.items;
}

/** Resolves once `check` holds, read again after each of the server's commits settle (a bounded number of looks). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await s.p.db.afterCommitSettled();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`never happened: ${what}`);
}

/**
 * Sandbox A's endpoint is a receiver that holds each request until the test lets it go,
 * then behaves so; sandbox B's answers 200. A's event is made first (a loop that went
 * group by group would wait on A before B).
 */
async function isolationCase(behave: Behaviour, reason: RegExp, status: number | null) {
  const a = await newSandbox(s);
  const b = await newSandbox(s);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const bad = await startHostile(async (socket) => {
    await released;
    if (!socket.destroyed) await behave(socket);
  });
  const good = await startReceiver();
  try {
    const ea = await endpoint(a, bad.url);
    const eb = await endpoint(b, good.url);
    await customer(a);
    await bad.waitFor(1);
    await customer(b);
    await good.waitFor(1);
    await eventually(async () => (await attempts(b, eb)).length === 1, "B's attempt recorded");
    assert.equal(bad.held, 1, "A's request is still held, unanswered, after B's delivery was recorded");
    assert.equal((await attempts(a, ea)).length, 0, "A's attempt is not over yet");
    const [okB] = await attempts(b, eb);
    assert.equal(okB.status, 'succeeded');
    release();
    await deliveriesSettled(s.p);
    const [failed, ...more] = await attempts(a, ea);
    assert.equal(more.length, 0);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.response_status, status);
    assert.match(failed.error, reason);
    assert.ok(failed.latency_ms <= LEASE_MS, `within the attempt's bound (${failed.latency_ms} ms)`);
    assert.ok(failed.next_attempt_at, 'retried on the schedule like any failure');
  } finally {
    await bad.close();
    await good.close();
  }
}

test('a receiver that never answers: timed out, and another group was served meanwhile', () =>
  isolationCase(behaviours.hang, /^timed out after \d+ ms waiting for the answer$/, null));

test('a receiver that trickles a byte a second: timed out mid-head', () =>
  isolationCase(behaviours.trickle, /^timed out after \d+ ms reading the status line and headers$/, null));

test('endless headers: cut at the header bound', () => isolationCase(behaviours.endlessHeaders, /^receiver limit: over 100 header lines$/, null));

test('endless trailers: cut at the trailer bound', () => isolationCase(behaviours.endlessTrailers, /^receiver limit: the trailers are over 16 KiB$/, 200));

test('a huge body: read up to the bound, no further', () =>
  isolationCase(behaviours.hugeBody, /^receiver limit: the body is over 64 KiB \(not read further\)$/, 200));

test('a receiver that closes mid-answer', () => isolationCase(behaviours.closeMidAnswer, /^ECONNRESET: the connection closed before the answer was complete$/, 200));

test('a redirect is not followed: a failure naming it', () => isolationCase(behaviours.redirect, /^the receiver answered 307 \(a redirect: not followed\)$/, 307));

test('a hanging endpoint with a backlog holds at most ENDPOINT_CONCURRENCY attempts; its group\'s other endpoint and another group are served meanwhile', async () => {
  const a = await newSandbox(s);
  const b = await newSandbox(s);
  const hang = await startHostile(behaviours.hang);
  const sibling = await startReceiver();
  const other = await startReceiver();
  try {
    const eh = await endpoint(a, hang.url);
    const es = await endpoint(a, sibling.url);
    const eb = await endpoint(b, other.url);
    const n = ENDPOINT_CONCURRENCY + 8;
    for (let i = 0; i < n; i++) await customer(a, i);
    await hang.waitFor(ENDPOINT_CONCURRENCY);
    await sibling.waitFor(n);
    await customer(b);
    await other.waitFor(1);
    await eventually(async () => (await attempts(a, es)).length === n && (await attempts(b, eb)).length === 1, 'the sibling and the other group recorded');
    assert.equal(hang.received, ENDPOINT_CONCURRENCY, 'the rest of the backlog waits for a free slot');
    assert.equal(hang.held, ENDPOINT_CONCURRENCY);
    assert.equal((await attempts(a, eh)).length, 0);
    await deliveriesSettled(s.p);
    // Its slots freed as its attempts timed out: the backlog went, never more than the limit at
    // once. (The first retries, due 5 s after a failure, may have begun by now too — the last
    // first attempts time out at about 9 s, the first retries fall due at 9.5 s: counted apart.)
    const tried = await attempts(a, eh);
    assert.equal(tried.filter((t: Json) => t.attempt === 1).length, n, 'each event tried once');
    assert.ok(hang.received >= n, String(hang.received));
    assert.equal(hang.maxHeld, ENDPOINT_CONCURRENCY);
    assert.ok(tried.every((t: Json) => t.status === 'failed' && /^timed out/.test(t.error)));
    assert.ok((await attempts(a, es)).every((t: Json) => t.status === 'succeeded'));
  } finally {
    await hang.close();
    await sibling.close();
    await other.close();
  }
});
