// Background work across a store outage (docs/decisions.md#store-outage: back by itself): a running server's
// due work falls due while its store is away — a settlement cutoff, a subscription's
// first charge, an idempotency key's expiry, and the webhook deliveries of the events
// they append. The clock is set so that all of it is due a few seconds after the cut
// (PostgreSQL: a TCP proxy closes; SQLite: another connection holds the write lock past
// the busy timeout). While away, the tick meets the outage, says so once on stderr and
// backs off (a few tries, not one per 100 ms tick); once the store is back every job
// runs exactly once: one settlement batch with the sale, one charge of the subscription,
// the key purged, each event delivered once. Both stores (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { storeWatch } from '../../src/services/store-watch.js';
import { saleBody } from '../helpers/bodies.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { shortenBusyTimeout, storeOutage, type StoreOutage } from '../helpers/outage.js';
import { testStore } from '../helpers/platform.js';

const DAY = 86_400_000;
const TICK_MS = 100;

let o: StoreOutage;
let p: Platform;
let demo: DemoOutput;
let server: RunningServer;
let receiver: Receiver;

before(async () => {
  o = await storeOutage();
  p = await openPlatform({ db: o.target });
  await shortenBusyTimeout(p.db);
  demo = await seedDemo(p);
  receiver = await startReceiver();
});
after(async () => {
  await server?.close();
  await p.close();
  await o.close();
  await receiver.close();
});

async function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${method} ${path}: ${text}`);
  return JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const count = async (sql: string, params: unknown[]) => Number((await p.db.get<{ n: number | string }>(sql, params))!.n);

test(`due work during a store outage (${testStore}): paused once with backoff, then each job exactly once`, { timeout: 90_000 }, async () => {
  // The clock's next midnight M (a settlement cutoff) at least a day ahead; the sale and its key are made at M − 1 day + 1 s.
  const M = Math.ceil(Date.now() / DAY) * DAY + DAY;
  await p.clock.setOffset(M - DAY + 1_000 - Date.now());
  server = await startServer({ platform: p, port: 0, tickMs: TICK_MS, accessLog: 'off' });
  const g = demo.group_id;
  await call('POST', `/api/v1/groups/${g}/webhook_endpoints`, demo.keys.manage_webhooks, { url: receiver.url, enabled_events: ['*'] });
  const sale = await call('POST', `/api/v1/groups/${g}/transaction`, demo.keys.manage_transactions, saleBody(demo.processor_id, { orderId: 'outage-job' }), { 'idempotency-key': 'outage-job-key' });
  assert.equal(sale.status, 'pending');
  const recurring = `/api/v1/groups/${g}/processing/${demo.linked_account_id}/recurring`;
  const plan = await call('POST', `${recurring}/plans`, demo.keys.manage_transactions, { name: 'Outage', amount: 1500, billing_cycle: 'monthly', duration: '12' });
  // The first charge at M + 2 s.
  const sub = await call('POST', `${recurring}/subscription`, demo.keys.manage_transactions, {
    plan_id: plan.id,
    customer_id: demo.customer_id,
    card_id: demo.card_id,
    start_date: new Date(M + 2_000).toISOString(),
  });
  const keys = () => count('SELECT count(*) AS n FROM idempotency_keys WHERE key = ?', ['outage-job-key']);
  const charges = () => count('SELECT count(*) AS n FROM subscription_charges WHERE subscription_id = ?', [sub.id]);
  assert.equal(await keys(), 1);
  assert.equal(await charges(), 0);

  // A day later, 3 s before M: nothing is due yet. The store goes away, and M passes.
  await p.clock.setOffset(M - 3_000 - Date.now());
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (lines.push(String(chunk)), write(chunk, ...rest))) as typeof process.stderr.write;
  const watch = storeWatch(p.db);
  const errorsBefore = [...watch.errors.values()].reduce((a, b) => a + b, 0);
  let outageMs = 0;
  const beforeCut = new Set((await p.db.all<{ id: string }>('SELECT id FROM events WHERE group_id = ?', [g])).map((e) => e.id));
  try {
    await o.cut();
    const cutAt = Date.now();
    while (p.clock.now().getTime() < M + 5_000) await new Promise((r) => setTimeout(r, 100));
    assert.ok(watch.away, 'the tick met the outage');
    const tries = [...watch.errors.values()].reduce((a, b) => a + b, 0) - errorsBefore;
    outageMs = Date.now() - cutAt;
    // Backoff from 0.25 s doubling to 5 s: a handful of tries, not one per tick.
    assert.ok(tries >= 2 && tries <= 20, `${tries} failed tries in ${outageMs} ms (ticks every ${TICK_MS} ms)`);
    await o.restore();
    // Settled, charged and purged once the backoff's next try reaches the store.
    const until = Date.now() + 20_000;
    const settled = () => count("SELECT count(*) AS n FROM transactions WHERE id = ? AND status = 'settled'", [sale.id]);
    while ((await settled()) === 0 || (await charges()) === 0 || (await keys()) === 1) {
      assert.ok(Date.now() < until, 'the due work ran after the outage');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The tick that did it says the store is back once its pass ends.
    while (watch.away) {
      assert.ok(Date.now() < until, 'the tick said the store is back');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    process.stderr.write = write;
  }
  const said = lines.join('');
  assert.equal(said.match(/store unavailable: .*background work paused/g)?.length, 1, said);
  assert.equal(said.match(/store available again after [\d.]+s; background work resumed/g)?.length, 1, said);
  assert.equal(watch.away, false);

  // Each event the resumed jobs appended is delivered once: wait for them, then for any repeat.
  const events = await p.db.all<{ id: string; type: string }>('SELECT id, type FROM events WHERE group_id = ? ORDER BY seq', [g]);
  const jobEvents = events.filter((e) => !beforeCut.has(e.id));
  assert.deepEqual(new Set(jobEvents.map((e) => e.type)), new Set(['transaction.settled', 'settlement_batch.closed', 'subscription.charged', 'transaction.approved']), events.map((e) => e.type).join());
  const deliveredAll = () => jobEvents.every((e) => receiver.received.some((x) => x.headers['webhook-id'] === e.id));
  for (const until = Date.now() + 20_000; !deliveredAll() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
  assert.ok(deliveredAll(), `every job event delivered: ${JSON.stringify({ jobEvents, received: receiver.received.map((r) => r.headers['webhook-id']) })}`);
  await new Promise((r) => setTimeout(r, 1_000));
  const delivered = receiver.received.map((r) => String(r.headers['webhook-id']));
  assert.equal(new Set(delivered).size, delivered.length, 'no event delivered twice');

  // Exactly once: one settled batch holding the sale, one charge attempt, one approved charge transaction.
  assert.equal(jobEvents.filter((e) => e.type === 'settlement_batch.closed').length, 1);
  assert.equal(jobEvents.filter((e) => e.type === 'subscription.charged').length, 1);
  assert.equal(jobEvents.filter((e) => e.type === 'transaction.approved').length, 1, "the charge's transaction");
  const settledData = await p.db.all<{ data: unknown }>("SELECT data FROM events WHERE group_id = ? AND type = 'transaction.settled'", [g]);
  const text = (d: unknown) => (typeof d === 'string' ? d : JSON.stringify(d));
  assert.equal(settledData.filter((r) => text(r.data).includes(sale.id)).length, 1, 'the sale settled once');
  assert.equal(await charges(), 1);
  assert.equal(await count("SELECT count(*) AS n FROM transactions WHERE subscription_id = ? AND status <> 'declined'", [sub.id]), 1);
  const got = await call('GET', `${recurring}/subscription/${sub.id}`, demo.keys.manage_transactions);
  assert.equal(got.metadata.charge_count, 1);
});
