// Every cache a server keeps stays correct when several servers share one PostgreSQL:
// two real `payctl serve` processes (A: no due work of its own, B: due work every 100 ms)
// and, for the live stream, a third server in this process whose stream never polls
// (only the database's NOTIFY can wake it). Keys, clocks, the pay rate limit, payment-link
// sessions, the admin token and Idempotency-Keys behave as on one server; events made on
// A reach a stream on C, complete and in order, and a Last-Event-ID resumes on B.
// Runs only in the PostgreSQL pass (test/run-postgres.ts).
import '../helpers/env.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { EventSource } from 'eventsource';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { seedDemoInGroup } from '../../src/dev/demo.js';
import { tempDbPath } from '../helpers/platform.js';
import { saleBody, US_BILLING } from '../helpers/bodies.js';
import { httpJson, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { createKey, revokeKey } from '../../src/services/groups/keys.js';
import type { PgNotices } from '../../src/store/postgres/notices.js';

const TOKEN_A = 'padm_server_a_token_for_the_cache_tests';
const TOKEN_B = 'padm_server_b_token_for_the_cache_tests';
/** The pay limit both servers are given: 5 attempts a minute per address. */
const PAY_LIMIT = 5;

let url: string;
let p: Platform;
let demo: DemoOutput;
let a: ServeProcess;
let b: ServeProcess;
/** In this process: its stream polls the log every 10 minutes, so only notices wake it. */
let cPlatform: Platform;
let c: RunningServer;

const serveArgs = (token: string, tick: number) => ['--tick', String(tick), '--access-log', 'off', '--trust-proxy', '--pay-rate-limit', `${PAY_LIMIT}/60s`, '--admin-token', token];

before(async () => {
  url = tempDbPath();
  p = await openPlatform({ db: url });
  demo = await seedDemo(p);
  // Each server its own data folder (profile, server.json), as on separate hosts.
  const dataDir = () => ({ PAYCTL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-server-')) });
  [a, b] = await Promise.all([
    spawnServe({ db: url, args: serveArgs(TOKEN_A, 0), env: dataDir() }),
    spawnServe({ db: url, args: serveArgs(TOKEN_B, 100), env: dataDir() }),
  ]);
  cPlatform = await openPlatform({ db: url });
  c = await startServer({ platform: cPlatform, port: 0, tickMs: 0, accessLog: 'off', seedDemo: seedDemoInGroup, settings: { eventStreamPollMs: 600_000, eventStreamHeartbeatMs: 60_000 } });
});

after(async () => {
  for (const s of [a, b]) {
    s?.child.kill('SIGTERM');
    await s?.exited;
  }
  await c?.close();
  await cPlatform?.close();
  await p?.close();
});

const sale = (server: { url: string }, group: string, key: string, processor: string, orderId: string, headers: Record<string, string> = {}) =>
  httpJson(`${server.url}/api/v1/groups/${group}/transaction`, 'POST', { key, body: saleBody(processor, { orderId }), headers });

async function sandbox(server: { url: string }, token: string, body: Record<string, unknown>) {
  const r = await httpJson(`${server.url}/api/v1/sandboxes`, 'POST', { key: token, body: { demo: true, ...body } });
  assert.equal(r.status, 201, r.text);
  return r.body as { group_id: string; processor_id: string; keys: Record<string, string>; clock: string };
}

/** Poll an answer until `done` (the work is another process's; a bound, not a timing). */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, boundMs = 30_000): Promise<T> {
  const until = Date.now() + boundMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > until) assert.fail(`${what}: not within ${boundMs} ms (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('caches across servers on one PostgreSQL', () => {
  test('the admin token of either server is accepted by the other', async () => {
    const made = await sandbox(b, TOKEN_A, { name: 'made on B with A token' });
    const listed = await httpJson(`${a.url}/api/v1/sandboxes`, 'GET', { key: TOKEN_B });
    assert.equal(listed.status, 200, listed.text);
    assert.ok((listed.body.data as Array<{ group_id: string }>).some((s) => s.group_id === made.group_id));
    const unknown = await httpJson(`${a.url}/api/v1/sandboxes`, 'GET', { key: 'padm_not_a_token_of_any_server' });
    assert.equal(unknown.status, 401);
  });

  test('a key revoked through one process is refused by another server at its next request', async () => {
    const ctx = contextFor(p, demo.group_id, { requestId: 'test', permissions: [] });
    const key = await execute(createKey, p, ctx as never, { permissions: ['view_transactions'], name: 'soon revoked' });
    const read = () => httpJson(`${b.url}/api/v1/sandboxes/${demo.group_id}/clock`, 'GET', { key: key.key });
    assert.equal((await read()).status, 200, 'B has the key in its cache');
    await execute(revokeKey, p, contextFor(p, undefined), { key_id: key.id });
    const after = await read();
    assert.equal(after.status, 401, after.text);
    assert.match(after.text, /revoked/);
  });

  test("a sandbox dropped through A: its keys are refused by B at once", async () => {
    const box = await sandbox(a, TOKEN_A, { name: 'dropped' });
    const read = () => httpJson(`${b.url}/api/v1/sandboxes/${box.group_id}/clock`, 'GET', { key: box.keys.view_transactions! });
    assert.equal((await read()).status, 200);
    const dropped = await httpJson(`${a.url}/api/v1/sandboxes/${box.group_id}`, 'DELETE', { key: TOKEN_A });
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal((await read()).status, 401);
  });

  test('a clock moved through A is the clock B uses: sale times and due work', async () => {
    const box = await sandbox(a, TOKEN_A, { name: 'clock', clock: '2030-01-01T12:00:00.000Z' });
    const key = box.keys.manage_transactions!;
    const early = await sale(b, box.group_id, key, box.processor_id, 'before-move');
    assert.equal(early.status, 200, early.text);
    assert.ok(early.body.created_at < '2030-01-01T13:00:00.000Z', early.body.created_at);
    // Close to the day's settlement cutoff (00:00 UTC), not past it: A settles nothing while it moves.
    const moved = await httpJson(`${a.url}/api/v1/sandboxes/${box.group_id}/clock`, 'POST', { key: TOKEN_A, body: { set: '2030-01-01T23:59:57.000Z' } });
    assert.equal(moved.status, 200, moved.text);
    const late = await sale(b, box.group_id, key, box.processor_id, 'after-move');
    assert.equal(late.status, 200, late.text);
    assert.ok(late.body.created_at >= '2030-01-01T23:59:57.000Z', `B's sale is on the moved clock: ${late.body.created_at}`);
    const seen = await httpJson(`${b.url}/api/v1/sandboxes/${box.group_id}/clock`, 'GET', { key });
    assert.ok(seen.body.now >= '2030-01-01T23:59:57.000Z', JSON.stringify(seen.body));
    // The cutoff passes on the group's clock a few real seconds later: only B runs due work (A's tick is off).
    for (const t of [early, late]) {
      await eventually(
        () => httpJson(`${a.url}/api/v1/groups/${box.group_id}/transaction/${t.body.id}`, 'GET', { key }),
        (r) => r.body.status === 'settled',
        `${t.body.id} settled by B at the cutoff of the moved clock`,
      );
    }
  });

  test('the pay limit per address holds across servers, and a session made on A pays on B', async () => {
    const link = await httpJson(`${a.url}/api/v1/groups/${demo.group_id}/payment-links`, 'POST', {
      key: demo.keys.manage_transactions,
      body: { amount: 1234, description: 'two servers' },
    });
    assert.equal(link.status, 200, link.text);
    const pub = await httpJson(`${a.url}/api/v1/payment-links/${link.body.id}`, 'GET');
    const session = pub.body.session_token as string;
    const attempt = (server: { url: string }, address: string) =>
      httpJson(`${server.url}/api/v1/payment-links/${link.body.id}/pay`, 'POST', {
        key: session,
        headers: { 'x-forwarded-for': address },
        body: { token: 'tok_visa', billing_address: US_BILLING },
      });
    // The first attempt, on B with A's session: paid.
    const paid = await attempt(b, '203.0.113.50');
    assert.equal(paid.status, 200, paid.text);
    // 30 more from the same address, alternating servers, 6 at a time: 4 more are counted, then 429.
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let i = next++; i < 30; i = next++) {
          const r = await attempt(i % 2 ? a : b, '203.0.113.50');
          assert.ok(r.status < 500, r.text);
          statuses.push(r.status);
        }
      }),
    );
    assert.equal(statuses.filter((s) => s === 429).length, 30 - (PAY_LIMIT - 1), `statuses: ${statuses.join(',')}`);
    // Another address is not limited on either server.
    const other = await attempt(a, '198.51.100.1');
    assert.notEqual(other.status, 429);
    assert.equal(other.headers.get('ratelimit-remaining'), String(PAY_LIMIT - 1));
  });

  test('one Idempotency-Key sent to three servers at once: one sale, never a 500', async () => {
    for (let round = 0; round < 4; round++) {
      const key = `three-${round}`;
      const replies = await Promise.all(
        [a, b, c].map((s) => sale(s, demo.group_id, demo.keys.manage_transactions, demo.processor_id, key, { 'idempotency-key': key })),
      );
      for (const r of replies) assert.ok(r.status === 200 || r.status === 409, `status ${r.status}: ${r.text}`);
      const ids = new Set(replies.filter((r) => r.status === 200).map((r) => r.body.id as string));
      assert.equal(ids.size, 1, 'one transaction');
      const n = await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE order_id = ?', [key]);
      assert.equal(n!.n, 1);
    }
  });
});

interface Msg {
  type: string;
  id: string;
  data: { id: string; data: { object: { order_id?: string } } };
}

/** A stream client collecting every message; `until` awaits a condition on them. */
function follow(server: { url: string }, key: string, lastEventId?: string) {
  const messages: Msg[] = [];
  const waiters: Array<() => void> = [];
  const es = new EventSource(`${server.url}/api/v1/groups/${demo.group_id}/events/stream?types=transaction.approved`, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: key, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) } }),
  });
  const push = (type: string) => (ev: MessageEvent) => {
    messages.push({ type, id: ev.lastEventId, data: JSON.parse(ev.data as string) });
    for (const w of waiters.splice(0)) w();
  };
  es.addEventListener('ready', push('ready'));
  es.addEventListener('transaction.approved', push('transaction.approved'));
  const until = async (done: () => boolean, what: string, boundMs = 20_000) => {
    const timer = setTimeout(() => {
      for (const w of waiters.splice(0)) w();
    }, boundMs);
    const deadline = Date.now() + boundMs;
    try {
      while (!done()) {
        if (Date.now() >= deadline) assert.fail(`${what}: not within ${boundMs} ms (the stream polls every 10 minutes)`);
        await new Promise<void>((r) => waiters.push(r));
      }
    } finally {
      clearTimeout(timer);
    }
  };
  return { es, messages, events: () => messages.filter((m) => m.type !== 'ready'), until };
}

describe('the live stream across servers', () => {
  test('a stream on C receives the events committed on A and B, in order and complete; a resume on B continues it', async () => {
    const key = demo.keys.manage_webhooks;
    const onC = follow(c, key);
    try {
      await onC.until(() => onC.messages.some((m) => m.type === 'ready'), 'ready');
      const orders: string[] = [];
      for (let i = 0; i < 12; i++) {
        const order = `stream-${i}`;
        orders.push(order);
        const r = await sale(i % 3 === 2 ? b : a, demo.group_id, demo.keys.manage_transactions, demo.processor_id, order);
        assert.equal(r.status, 200, r.text);
      }
      await onC.until(() => onC.events().length >= orders.length, 'every sale made on A and B reached the stream on C');
      const got = onC.events();
      assert.deepEqual(got.map((m) => m.data.data.object.order_id), orders, 'complete, in commit order, once each');
      const positions = got.map((m) => Number(m.id));
      assert.deepEqual([...positions].sort((x, y) => x - y), positions);

      // Resume on B after the 5th event: B sends exactly the rest, in the same order.
      const resumed = follow(b, key, got[4]!.id);
      try {
        await resumed.until(() => resumed.events().length >= got.length - 5, 'the resume on B');
        assert.deepEqual(resumed.events().map((m) => m.id), got.slice(5).map((m) => m.id));
      } finally {
        resumed.es.close();
      }

      // C's notice connection drops: it reconnects, and what A commits afterwards still arrives.
      (cPlatform.db.notices as PgNotices).dropForTest();
      const r = await sale(a, demo.group_id, demo.keys.manage_transactions, demo.processor_id, 'after-drop');
      assert.equal(r.status, 200, r.text);
      await onC.until(() => onC.events().some((m) => m.data.data.object.order_id === 'after-drop'), 'the event after the dropped connection');
      assert.equal(onC.events().length, orders.length + 1);
    } finally {
      onC.es.close();
    }
  });
});
