// PostgreSQL's column types (migration 30): instants are `timestamptz`, the JSON documents
// no client sees in a key order of its own are `jsonb`, and yet the API answers byte for
// byte as over SQLite — reads of copied data, idempotent replays, new writes, the report
// by day — because the store reads them back as the text SQLite holds. PostgreSQL pass only.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { INSTANT_COLUMNS, JSONB_COLUMNS } from '../../src/store/migrations/030-typed-columns.js';
import { END_OF_TIME } from '../../src/domain/time.js';
import { runCliJson } from '../helpers/cli.js';
import { saleBody } from '../helpers/bodies.js';

const PG = process.env.PAYCTL_TEST_PG_URL;
const pgUrl = () => `${PG}/types_${randomBytes(6).toString('hex')}`;
const sqliteFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'payctl-types-')), 'payctl.db');

interface Raw {
  status: number;
  text: string;
}
interface Api {
  demo: DemoOutput;
  call(method: string, pathname: string, key: string | undefined, body?: unknown, headers?: Record<string, string>): Promise<Raw>;
  close(): Promise<void>;
}

async function serve(db: string): Promise<Api> {
  const p: Platform = await openPlatform({ db });
  const demo = await seedDemo(p);
  const server: RunningServer = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
  return {
    demo,
    async call(method, pathname, key, body, headers = {}) {
      const res = await fetch(server.url + pathname, {
        method,
        headers: { ...(key ? { authorization: key } : {}), ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, text: await res.text() };
    },
    async close() {
      await server.close();
      await p.close();
    },
  };
}

function sqliteRun(file: string, sql: string, params: unknown[]): Promise<void> {
  const db = new sqlite3.Database(file);
  return new Promise((resolve, reject) =>
    db.run(sql, params, (err) => db.close(() => (err ? reject(err) : resolve()))),
  );
}

test('the columns are typed: every instant timestamptz, the order-free documents jsonb, the rest json; dates stay text', async () => {
  const url = pgUrl();
  const store = await openPostgresStore(url);
  try {
    const rows = await store.all<{ t: string; c: string; type: string }>(
      "SELECT table_name AS t, column_name AS c, data_type AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name NOT IN ('config_version', 'vault_version')",
    );
    const type = (t: string, c: string) => rows.find((r) => r.t === t && r.c === c)?.type;
    for (const [t, cols] of Object.entries(INSTANT_COLUMNS)) for (const c of cols) assert.equal(type(t, c), 'timestamp with time zone', `${t}.${c}`);
    for (const [t, cols] of Object.entries(JSONB_COLUMNS)) for (const c of cols) assert.equal(type(t, c), 'jsonb', `${t}.${c}`);
    // No instant left as text (a column added later must be typed too), and the documents kept json are these.
    const textInstants = rows.filter((r) => r.type === 'text' && /(_at|_until|_start|_end|next_bill_date)$/.test(r.c));
    assert.deepEqual(textInstants, []);
    assert.deepEqual(
      rows.filter((r) => r.type === 'json').map((r) => `${r.t}.${r.c}`).sort(),
      ['customer_cards.billing_address', 'customers.billing_address', 'plans.custom_fields',
        // A sandbox's demo ids, answered in the order they were written in (docs/scenarios.md); the
        // request journal keeps its bodies as text (docs/journal.md).
        'sandbox_demos.ids',
        'signup_entries.entry_json', 'subscriptions.billing_address',
        'transactions.billing_address', 'transactions.commissions', 'transactions.custom_fields', 'transactions.shipping_address'],
    );
    // Dates without a time are text, answered as written.
    for (const [t, c] of [['invoices', 'due_date'], ['transaction_daily', 'day'], ['transaction_daily_dims', 'day'], ['transactions', 'expiration_date']]) {
      assert.equal(type(t!, c!), 'text', `${t}.${c}`);
    }
    assert.equal(type('transactions', 'captured_amount'), 'bigint');
  } finally {
    await store.close();
  }
});

test('an instant round-trips exactly: ms, 1970 to the end of time, in text order, whatever the server\'s time zone and date style', async () => {
  const url = pgUrl();
  // A database whose sessions default to another zone and style: the store's own settings win.
  await (await openPostgresStore(url)).close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = new URL(url).pathname.slice(1);
  await admin.query(`ALTER DATABASE "${name}" SET timezone = 'Pacific/Kiritimati'`);
  await admin.query(`ALTER DATABASE "${name}" SET datestyle = 'SQL, DMY'`);
  await admin.end();

  const store = await openPostgresStore(url);
  try {
    const values = [
      '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.001Z', '2024-02-29T23:59:59.999Z', '2026-06-30T12:00:00.010Z',
      '2026-06-30T12:00:00.100Z', '2026-06-30T12:00:00.120Z', '9999-12-31T23:59:59.999Z', END_OF_TIME,
      // now + a TTL at the end of time, as JavaScript writes it.
      '+010000-01-01T00:00:01.000Z',
    ];
    for (const v of values) {
      assert.equal((await store.get<{ t: string }>('SELECT CAST(? AS timestamptz) AS t', [v]))!.t, v);
    }
    // Stored in a column and read back.
    for (const v of values) {
      await store.write((tx) => tx.run('UPDATE schema_migrations SET applied_at = ? WHERE version = 1', [v]));
      assert.equal((await store.get<{ t: string }>('SELECT applied_at AS t FROM schema_migrations WHERE version = 1'))!.t, v);
    }
    // Ordered as their text orders (the year-10000 one aside: JavaScript's `+` form sorts first as text).
    const inOrder = values.slice(0, -1);
    const shuffled = [...inOrder].reverse();
    const sorted = await store.all<{ t: string }>(`SELECT t FROM (VALUES ${shuffled.map(() => '(CAST(? AS timestamptz))').join(', ')}) AS x(t) ORDER BY t`, shuffled);
    assert.deepEqual(sorted.map((r) => r.t), [...inOrder].sort());
    // The UTC day of an instant (as its text's first ten characters on SQLite), in a session of another zone.
    const day = await store.get<{ d: string }>(`SELECT ${store.dialect.utcDay('created_at')} AS d FROM (SELECT CAST(? AS timestamptz) AS created_at) x`, ['2026-03-01T23:30:00.000Z']);
    assert.equal(day!.d, '2026-03-01');
  } finally {
    await store.close();
  }
});

const PLAN = { name: 'Gold', amount: 3000, billing_cycle: 'monthly', duration: '12', max_retry_count: 2, retry_policy: { steps: [{ delay_days: 3 }, { delay_days: 10 }] }, custom_fields: { zeta: 'z', alpha: 'a', mid: 'm' } };
const ENDPOINT = { url: 'http://127.0.0.1:9/hooks', enabled_events: ['transaction.*', 'subscription.created', 'customer.*', 'plan.created'] };

/** The objects whose stored columns changed type: a plan, a subscription paid by a token, a webhook endpoint, sales. */
async function makeObjects(api: Api): Promise<{ paths: string[]; replay: { body: unknown; headers: Record<string, string>; answer: Raw } }> {
  const d = api.demo;
  const g = d.group_id;
  const key = d.keys.manage_transactions;
  const base = `/api/v1/groups/${g}/processing/${d.linked_account_id}/recurring`;
  const plan = await api.call('POST', `${base}/plans`, key, PLAN);
  assert.equal(plan.status, 200, plan.text);
  const token = await api.call('POST', '/api/v1/tokens', undefined, { card: { number: '5555555555554444', expiration_month: 12, expiration_year: 2099, cvv: '123', holder_name: 'Ada L' } });
  assert.equal(token.status, 200, token.text);
  const sub = await api.call('POST', `${base}/subscription`, key, { plan_id: JSON.parse(plan.text).id, customer_id: d.customer_id, payment_details: { token: JSON.parse(token.text).token } });
  assert.equal(sub.status, 200, sub.text);
  const hook = await api.call('POST', `/api/v1/groups/${g}/webhook_endpoints`, d.keys.manage_webhooks, ENDPOINT);
  assert.equal(hook.status, 200, hook.text);
  const body = saleBody(d.processor_id, { orderId: 'typed' });
  const headers = { 'idempotency-key': 'typed-columns-sale' };
  const sale = await api.call('POST', `/api/v1/groups/${g}/transaction`, key, body, headers);
  assert.equal(sale.status, 200, sale.text);
  const sales: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await api.call('POST', `/api/v1/groups/${g}/transaction`, key, saleBody(d.processor_id, { amount: 1000 + i }));
    assert.equal(r.status, 200, r.text);
    sales.push(JSON.parse(r.text).id);
  }
  return {
    paths: [
      `${base}/plans/${JSON.parse(plan.text).id}`,
      `${base}/subscription/${JSON.parse(sub.text).id}`,
      `/api/v1/groups/${g}/webhook_endpoints/${JSON.parse(hook.text).id}`,
      `/api/v1/groups/${g}/transaction/${JSON.parse(sale.text).id}`,
      ...sales.map((id) => `/api/v1/groups/${g}/transaction/${id}`),
    ],
    replay: { body, headers, answer: sale },
  };
}

/** Windows of the report by day around the moved sales: whole days (the rollup) and partial ends (rows). */
const DAY_WINDOWS = [
  'start=2026-02-27T00:00:00.000Z&end=2026-03-05T00:00:00.000Z',
  'start=2026-03-01T12:00:00.000Z&end=2026-03-03T00:00:00.000Z',
  'start=2026-03-02T00:00:00.000Z&end=2026-03-02T23:59:59.999Z',
];

const keyFor = (api: Api, p: string) => (p.includes('/webhook_endpoints') ? api.demo.keys.manage_webhooks : api.demo.keys.manage_transactions);

async function answers(api: Api, paths: string[]): Promise<Raw[]> {
  const d = api.demo;
  const view = d.keys.view_transactions;
  const out: Raw[] = [];
  for (const p of paths) out.push(await api.call('GET', p, keyFor(api, p)));
  for (const w of DAY_WINDOWS) {
    out.push(await api.call('GET', `/api/v1/groups/${d.group_id}/transactions/reporting/summary?group_by=day&${w}`, view));
    out.push(await api.call('GET', `/api/v1/groups/${d.group_id}/processing/${d.linked_account_id}/transactions/reporting?type=count&${w}`, view));
    out.push(await api.call('GET', `/api/v1/groups/${d.group_id}/processing/${d.linked_account_id}/transactions/reporting?type=table&limit=10&${w}`, view));
  }
  out.push(await api.call('GET', `/api/v1/groups/${d.group_id}/events?limit=100`, d.keys.manage_webhooks));
  out.push(await api.call('GET', `/api/v1/groups/${d.group_id}/webhook_endpoints`, d.keys.manage_webhooks));
  return out;
}

test('the API answers byte for byte as over SQLite: copied data, a replay, the report by day after moved sales, new writes', async () => {
  const file = sqliteFile();
  const source = await serve(file);
  const made = await makeObjects(source);
  await source.close();
  // Three sales moved around a UTC midnight (the rollup follows through SQLite's trigger).
  const saleIds = made.paths.slice(-3).map((p) => p.split('/').pop()!);
  const moves: Array<[string, string]> = [[saleIds[0]!, '2026-03-01T23:59:59.999Z'], [saleIds[1]!, '2026-03-02T00:00:00.000Z'], [saleIds[2]!, '2026-03-02T12:00:00.000Z']];
  for (const [id, at] of moves) await sqliteRun(file, 'UPDATE transactions SET created_at = ? WHERE id = ?', [at, id]);

  const target = pgUrl();
  await runCliJson(['db', 'copy', '--from', file, '--to', target]);
  // One more move on both, after the copy: on PostgreSQL through its trigger (the UTC day of
  // a timestamptz), from a session in another zone.
  const last: [string, string] = [saleIds[2]!, '2026-03-03T00:00:00.001Z'];
  await sqliteRun(file, 'UPDATE transactions SET created_at = ? WHERE id = ?', [last[1], last[0]]);
  const client = new pg.Client({ connectionString: target, options: '-c TimeZone=Pacific/Kiritimati' });
  await client.connect();
  await client.query('UPDATE transactions SET created_at = $1 WHERE id = $2', [last[1], last[0]]);
  await client.end();

  const sqliteApi = await serve(file);
  const pgApi = await serve(target);
  try {
    const expected = await answers(sqliteApi, made.paths);
    const got = await answers(pgApi, made.paths);
    for (const a of expected) assert.equal(a.status, 200, a.text);
    for (let i = 0; i < expected.length; i++) assert.equal(got[i]!.text, expected[i]!.text, `answer ${i}`);
    // The report by day saw the moves: 2026-03-01 has one sale, 2026-03-02 one (the midnight one), 2026-03-03 one.
    const byDay = JSON.parse(got[made.paths.length]!.text) as { groups: Array<{ key: string; count: number }> };
    assert.deepEqual(byDay.groups.map((r) => [r.key, r.count]), [['2026-03-01', 1], ['2026-03-02', 1], ['2026-03-03', 1]], got[made.paths.length]!.text);

    // A replay of the first sale on PostgreSQL is the answer SQLite first gave, byte for byte.
    const d = pgApi.demo;
    const again = await pgApi.call('POST', `/api/v1/groups/${d.group_id}/transaction`, d.keys.manage_transactions, made.replay.body, made.replay.headers);
    assert.equal(again.status, made.replay.answer.status);
    assert.equal(again.text, made.replay.answer.text);

    // New writes on both stores: the same answers but for ids and times; on PostgreSQL a read after the write is the write's answer.
    const fresh = async (api: Api) => {
      const a = await makeObjects(api);
      const reads = [];
      for (const p of a.paths.slice(0, 4)) reads.push((await api.call('GET', p, keyFor(api, p))).text);
      return { made: a, reads };
    };
    const onSqlite = await fresh(sqliteApi);
    const onPg = await fresh(pgApi);
    const masked = (text: string) =>
      text
        .replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<id>"')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<instant>')
        .replace(/"(token|secret|signing_secret)":"[^"]*"/g, '"$1":"<secret>"');
    assert.deepEqual(onPg.reads.map(masked), onSqlite.reads.map(masked));
    assert.equal(onPg.made.replay.answer.text.length > 0, true);
    assert.equal(masked(onPg.made.replay.answer.text), masked(onSqlite.made.replay.answer.text));
    // The plan's custom fields keep the client's key order; its retry policy and the endpoint's events their order.
    const plan = JSON.parse(onPg.reads[0]!);
    assert.deepEqual(Object.keys(plan.custom_fields), ['zeta', 'alpha', 'mid']);
    assert.deepEqual(plan.retry_policy, PLAN.retry_policy);
    assert.deepEqual(JSON.parse(onPg.reads[2]!).enabled_events, ENDPOINT.enabled_events);
  } finally {
    await sqliteApi.close();
    await pgApi.close();
  }
});
