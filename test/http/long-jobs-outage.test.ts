// Long background jobs across a store outage (docs/decisions.md#store-outage: back by
// itself): a group's clock catch-up (src/services/clock/catch-up.ts, 30 days of daily
// billing for 6 subscriptions, in chunks) and a sandbox fork (fork-run.ts, 10,000
// customers, in chunks) are both under way — each answered 202 — when the store goes away
// for a few seconds (PostgreSQL: a TCP proxy closes; SQLite: another connection holds the
// write lock past the busy timeout, test/helpers/outage.ts). Each run meets the outage and
// stops, saying so; once the store is back the same server's tick goes on from what the
// database holds (runDueWork, resumeForks), no restart: every subscription charged once for
// each day (no period twice, none missing, one event per charge) and the fork whole and
// equal to its source. Both stores (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { seedDemoInGroup } from '../../src/dev/demo.js';
import { storeWatch } from '../../src/services/store-watch.js';
import { ADMIN, addCustomers, forkedCounts, noonToday, type SandboxReply } from '../helpers/sandboxes.js';
import { shortenBusyTimeout, storeOutage, type StoreOutage } from '../helpers/outage.js';
import { testStore } from '../helpers/platform.js';

const TICK_MS = 100;
const SUBSCRIPTIONS = 6;
const DAYS = 30;
const FORK_CUSTOMERS = 10_000;
/** How long the store stays away once both jobs met the outage (ms). */
const OUTAGE_MS = 3_000;

let o: StoreOutage;
let p: Platform;
let server: RunningServer;

before(async () => {
  o = await storeOutage();
  // Answer budgets 0: the move and the fork answer 202 at once and their work goes on in the server.
  p = await openPlatform({ db: o.target, env: { ...process.env, PAYCTL_CLOCK_ANSWER_MS: '0', PAYCTL_FORK_ANSWER_MS: '0' } });
  await shortenBusyTimeout(p.db);
  server = await startServer({ platform: p, port: 0, tickMs: TICK_MS, accessLog: 'off', adminToken: ADMIN, seedDemo: seedDemoInGroup });
});
after(async () => {
  await server?.close();
  await p?.close();
  await o?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: Body; text: string }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Body, text };
}

async function ok(method: string, path: string, key: string, body?: unknown, status = 200): Promise<Body> {
  const r = await call(method, path, key, body);
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.body;
}

/** Poll `check` every 100 ms until it returns true, failing with `what` (and the last state) after `ms`. */
async function waitFor(what: string, ms: number, check: () => Promise<boolean>, state: () => Promise<unknown> = async () => ''): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`${what} within ${ms / 1000} s; last seen: ${JSON.stringify(await state())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function dailySubscriptions(sb: SandboxReply, n: number): Promise<string[]> {
  const g = `/api/v1/groups/${sb.group_id}`;
  const recurring = `${g}/processing/${sb.linked_account_id}/recurring`;
  const key = sb.keys.manage_transactions!;
  const plan = await ok('POST', `${recurring}/plans`, key, { name: 'Daily', amount: 700, billing_cycle: 'daily', duration: 0 });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const customer = await ok('POST', `${g}/customers`, sb.keys.manage_customers!, { first_name: 'Daily', last_name: `Payer ${i}` });
    const sub = await ok('POST', `${recurring}/subscription`, key, { plan_id: plan.id, customer_id: customer.id, payment_details: { token: 'tok_visa' } });
    ids.push(sub.id as string);
  }
  return ids;
}

test(`a catch-up and a fork cut mid-run (${testStore}): both finish once the store is back, each day charged once, the fork equal to its source`, { timeout: 180_000 }, async () => {
  const [a, src] = [
    (await ok('POST', '/api/v1/sandboxes', ADMIN, { clock: '2030-01-01T00:00:00Z' }, 201)) as SandboxReply,
    // (At noon: a settlement cutoff passed during the test would change the source's rows.)
    (await ok('POST', '/api/v1/sandboxes', ADMIN, { demo: true, clock: noonToday() }, 201)) as SandboxReply,
  ];
  const subs = await dailySubscriptions(a, SUBSCRIPTIONS);
  await addCustomers(p.db, src, FORK_CUSTOMERS);
  const sourceCounts = await forkedCounts(p.db, src.group_id);
  const sourceNames = async (groupId: string) =>
    (await p.db.all<{ name: string }>("SELECT first_name || ' ' || last_name AS name FROM customers WHERE group_id = ? ORDER BY 1", [groupId])).map((r) => r.name);
  const namesBefore = await sourceNames(src.group_id);

  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (lines.push(String(chunk)), write(chunk, ...rest))) as typeof process.stderr.write;
  const said = () => lines.join('');
  const watch = storeWatch(p.db);
  let forkId = '';
  let forkKeys: Record<string, string> = {};
  try {
    // Both jobs start and answer 202 while they run; the store goes away at once.
    const forked = await ok('POST', `/api/v1/sandboxes/${src.group_id}/fork`, ADMIN, { name: 'outage fork' }, 202);
    forkId = forked.group_id as string;
    forkKeys = forked.keys as Record<string, string>;
    assert.equal(forked.status, 'forking');
    const moved = await ok('POST', `/api/v1/sandboxes/${a.group_id}/clock`, a.keys.manage_transactions!, { advance: `${DAYS}d` }, 202);
    assert.equal(moved.catch_up.status, 'running');
    await o.cut();
    const cutAt = Date.now();
    // Each run meets the outage at its next chunk and stops, saying so (then the tick is what goes on with it).
    const catchUpStopped = new RegExp(`catch-up of group ${a.group_id} stopped: .*the server's tick goes on with it`);
    const forkStopped = new RegExp(`fork ${forkId} of sandbox ${src.group_id} stopped: .*the server's tick goes on with it`);
    await waitFor('both runs met the outage (were they over before the cut?)', 30_000, async () => catchUpStopped.test(said()) && forkStopped.test(said()), async () => said());
    await waitFor("the server's tick met the outage", 30_000, async () => watch.away);
    const stillAway = OUTAGE_MS - (Date.now() - cutAt);
    if (stillAway > 0) await new Promise((r) => setTimeout(r, stillAway));
    await o.restore();
    const restoredAt = Date.now();

    // The same server goes on with both once its backoff's next try reaches the store.
    await waitFor(
      'the catch-up caught up after the outage',
      60_000,
      async () => (await call('GET', `/api/v1/sandboxes/${a.group_id}/clock`, ADMIN)).body.catch_up?.status === 'caught_up',
      async () => (await call('GET', `/api/v1/sandboxes/${a.group_id}/clock`, ADMIN)).body,
    );
    const caughtUpAt = Date.now();
    await waitFor(
      'the fork was made whole after the outage',
      60_000,
      async () => (await call('GET', `/api/v1/sandboxes/${forkId}`, ADMIN)).body.status === 'active',
      async () => (await call('GET', `/api/v1/sandboxes/${forkId}`, ADMIN)).body,
    );
    await waitFor('the tick said the store is back', 30_000, async () => !watch.away);
    write(`long jobs: store away ${((restoredAt - cutAt) / 1000).toFixed(1)} s; after it came back the catch-up was over in ${((caughtUpAt - restoredAt) / 1000).toFixed(1)} s, the fork in ${((Date.now() - restoredAt) / 1000).toFixed(1)} s\n`);
  } finally {
    process.stderr.write = write;
  }
  assert.equal(said().match(/store unavailable: .*background work paused/g)?.length, 1, said());
  assert.equal(said().match(/store available again after [\d.]+s; background work resumed/g)?.length, 1, said());

  // Every subscription charged once for each day: periods 0 (at creation) to DAYS, none twice, none missing.
  const perSub = await p.db.all<{ subscription_id: string; n: number | string; periods: number | string; lo: number | string; hi: number | string }>(
    `SELECT subscription_id, COUNT(*) AS n, COUNT(DISTINCT period) AS periods, MIN(period) AS lo, MAX(period) AS hi
       FROM subscription_charges WHERE subscription_id IN (${subs.map(() => '?').join(', ')}) GROUP BY subscription_id ORDER BY subscription_id`,
    subs,
  );
  assert.deepEqual(
    perSub.map((r) => [r.subscription_id, Number(r.n), Number(r.periods), Number(r.lo), Number(r.hi)]),
    [...subs].sort().map((id) => [id, DAYS + 1, DAYS + 1, 0, DAYS]),
  );
  const txs = await p.db.get<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM transactions WHERE status <> 'declined' AND subscription_id IN (${subs.map(() => '?').join(', ')})`,
    subs,
  );
  assert.equal(Number(txs!.n), SUBSCRIPTIONS * (DAYS + 1), 'one transaction per charge');
  const charged = await p.db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM events WHERE group_id = ? AND type = 'subscription.charged'", [a.group_id]);
  assert.equal(Number(charged!.n), SUBSCRIPTIONS * (DAYS + 1), 'one subscription.charged event per charge');
  for (const id of subs) {
    const got = await ok('GET', `/api/v1/groups/${a.group_id}/processing/${a.linked_account_id}/recurring/subscription/${id}`, a.keys.manage_transactions!);
    assert.equal(got.metadata.charge_count, DAYS + 1, id);
  }

  // The fork whole and equal to its source: the same rows per table, the same customers, its job and id map gone.
  assert.deepEqual(await forkedCounts(p.db, forkId), sourceCounts);
  assert.deepEqual(await sourceNames(forkId), namesBefore);
  assert.deepEqual(await forkedCounts(p.db, src.group_id), sourceCounts, 'the source is untouched');
  const stray = await p.db.get<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM customer_cards c JOIN customers u ON u.id = c.customer_id WHERE c.group_id = ? AND u.group_id <> ?',
    [forkId, forkId],
  );
  assert.equal(Number(stray!.n), 0, "the fork's cards belong to the fork's customers");
  await waitFor(
    "the fork's job and id map forgotten",
    30_000,
    async () => Number((await p.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM fork_jobs WHERE source_id = ?', [src.group_id]))!.n) === 0,
  );
  assert.equal(Number((await p.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM fork_map WHERE fork_id = ?', [forkId]))!.n), 0);
  // The fork's keys, issued with its 202, work now.
  const one = await p.db.get<{ id: string }>("SELECT id FROM customers WHERE group_id = ? AND last_name = 'Customer 1'", [forkId]);
  const shown = await ok('GET', `/api/v1/groups/${forkId}/customers/${one!.id}`, forkKeys.manage_customers!);
  assert.equal(shown.last_name, 'Customer 1');
});
