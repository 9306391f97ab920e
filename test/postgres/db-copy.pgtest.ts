// `payctl db copy`: a SQLite database moved to PostgreSQL keeps every row (same ids, same
// bytes), and the API over the copy answers as it did over the original: reports, a
// customer, the event list, a stream resumed with a Last-Event-ID taken from the original,
// and a new sale that gets fresh ids and the next event position. Runs only in the
// PostgreSQL pass (test/run-postgres.ts), on the demo database and on a 100k-row one.
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
import { runCli, runCliJson, assertUserError } from '../helpers/cli.js';
import { saleBody } from '../helpers/bodies.js';
import type { CopyResult } from '../../src/services/db/copy.js';
import { instantFromPg } from '../../src/store/postgres/types.js';

const PG = process.env.PAYCTL_TEST_PG_URL;
const sqliteFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'payctl-copy-')), 'payctl.db');
const pgUrl = () => `${PG}/copy_${randomBytes(6).toString('hex')}`;

interface Api {
  url: string;
  p: Platform;
  demo: DemoOutput;
  server: RunningServer;
  get(pathname: string, key: string): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  post(pathname: string, key: string, body: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

async function serve(db: string): Promise<Api> {
  const p = await openPlatform({ db });
  // On a copy: the demo is found done, and its keys (derived from the copied seed) are the same.
  const demo = await seedDemo(p);
  const server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
  const call = async (method: string, pathname: string, key: string, body?: unknown) => {
    const res = await fetch(server.url + pathname, {
      method,
      headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
  return {
    url: server.url,
    p,
    demo,
    server,
    get: (pathname, key) => call('GET', pathname, key),
    post: (pathname, key, body) => call('POST', pathname, key, body),
    async close() {
      await server.close();
      await p.close();
    },
  };
}

/** Messages of an event stream opened with `lastEventId` (none: from the log's end), until `enough` says so. */
async function streamFrom(api: Api, lastEventId: string | undefined, enough: (events: Array<{ id: string; event: string; data: any }>) => boolean) { // eslint-disable-line @typescript-eslint/no-explicit-any
  const ctrl = new AbortController();
  const res = await fetch(`${api.url}/api/v1/groups/${api.demo.group_id}/events/stream`, {
    headers: { authorization: api.demo.keys.manage_webhooks, ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) },
    signal: ctrl.signal,
  });
  assert.equal(res.status, 200);
  const events: Array<{ id: string; event: string; data: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body! as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const field = (name: string) => block.split('\n').find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim();
        const data = field('data');
        if (data !== undefined) events.push({ id: field('id') ?? '', event: field('event') ?? 'message', data: JSON.parse(data) });
      }
      if (enough(events)) break;
    }
  } finally {
    ctrl.abort();
  }
  return events;
}

/** Every row of every table, integers as text, in key order: what "same bytes" means. */
async function sqliteRows(file: string, table: string, columns: string[], key: string[]): Promise<string[][]> {
  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  try {
    const rows = await new Promise<Array<Record<string, unknown>>>((resolve, reject) =>
      db.all(`SELECT ${columns.map((c) => `CAST("${c}" AS TEXT) AS "${c}"`).join(', ')} FROM "${table}" ORDER BY ${key.map((c) => `"${c}"`).join(', ')}`, (err, r) =>
        err ? reject(err) : resolve(r as Array<Record<string, unknown>>),
      ),
    );
    return rows.map((r) => columns.map((c) => (r[c] === null ? null : String(r[c]))) as string[]);
  } finally {
    await new Promise((r) => db.close(r));
  }
}

/**
 * The same on PostgreSQL: text columns as they are; instants (timestamptz) as the store
 * reads them (the ISO text SQLite holds); jsonb documents, which keep no key order, as
 * their JSON with keys sorted (the SQLite side's too, by the caller).
 */
async function pgRows(client: pg.Client, table: string, columns: string[], key: string[]): Promise<string[][]> {
  const types = await pgColumnTypes(client, table);
  const r = await client.query({
    text: `SELECT ${columns.map((c) => `"${c}"::text AS "${c}"`).join(', ')} FROM "${table}" ORDER BY ${key.map((c) => `"${c}"`).join(', ')}`,
    rowMode: 'array',
  });
  return (r.rows as Array<Array<string | null>>).map((row) =>
    row.map((v, i) => (v === null ? null : types.get(columns[i]!) === 'timestamp with time zone' ? instantFromPg(v) : types.get(columns[i]!) === 'jsonb' ? sortedJson(v) : v)),
  ) as string[][];
}

async function pgColumnTypes(client: pg.Client, table: string): Promise<Map<string, string>> {
  const r = await client.query<{ c: string; t: string }>('SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [table]);
  return new Map(r.rows.map((x) => [x.c, x.t]));
}

/** A JSON document with every object's keys sorted. */
function sortedJson(text: string): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort(JSON.parse(text)));
}

async function tableShapes(file: string): Promise<Array<{ table: string; columns: string[]; key: string[] }>> {
  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  const all = <T>(sql: string, params: unknown[] = []) =>
    new Promise<T[]>((resolve, reject) => db.all(sql, params, (err, r) => (err ? reject(err) : resolve(r as T[]))));
  try {
    const tables = await all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations' ORDER BY name");
    const out = [];
    for (const { name } of tables) {
      const cols = await all<{ name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?)', [name]);
      // The journal's id is SQLite's rowid only (db copy leaves it behind): its rows compared by group and seq.
      if (name === 'request_journal') out.push({ table: name, columns: cols.map((c) => c.name).filter((c) => c !== 'id'), key: ['group_id', 'seq'] });
      else out.push({ table: name, columns: cols.map((c) => c.name), key: cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name) });
    }
    return out;
  } finally {
    await new Promise((r) => db.close(r));
  }
}

/** Fixed windows (the default one ends now, and moves while a copy runs: a row at its start falls out): whole days (read from the rollups), and one that starts and ends mid-day. */
const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const WHOLE_DAYS = `start=${new Date(today - 300 * DAY).toISOString()}&end=${new Date(today + 2 * DAY).toISOString()}`;
const MID_DAY = `start=${new Date(today - 40 * DAY - 3_723_456).toISOString()}&end=${new Date(today + DAY + 1_234_567).toISOString()}`;

const reportPaths = (d: DemoOutput) => [
  `/api/v1/groups/${d.group_id}/transactions/reporting/summary?group_by=status&${WHOLE_DAYS}`,
  `/api/v1/groups/${d.group_id}/transactions/reporting/summary?group_by=brand&${MID_DAY}`,
  `/api/v1/groups/${d.group_id}/transactions/reporting/summary?group_by=source&${WHOLE_DAYS}`,
  `/api/v1/groups/${d.group_id}/processing/${d.linked_account_id}/transactions/reporting?type=count&${WHOLE_DAYS}`,
  `/api/v1/groups/${d.group_id}/processing/${d.linked_account_id}/transactions/reporting?type=amount_sum&${WHOLE_DAYS}`,
  `/api/v1/groups/${d.group_id}/processing/${d.linked_account_id}/transactions/reporting?limit=20&${WHOLE_DAYS}`,
];

/** The answers that must not change with the store. */
async function answers(api: Api): Promise<unknown[]> {
  const d = api.demo;
  const key = d.keys.view_transactions;
  const out: unknown[] = [];
  for (const p of reportPaths(d)) out.push(await api.get(p, key));
  out.push(await api.get(`/api/v1/groups/${d.group_id}/customers/${d.customer_id}`, d.keys.manage_customers));
  out.push(await api.get(`/api/v1/groups/${d.group_id}/events?limit=100`, d.keys.manage_webhooks));
  return out;
}

test('the demo database: every row copied byte for byte; the API over the copy answers as over the original', async () => {
  const file = sqliteFile();
  const target = pgUrl();
  const source = await serve(file);
  const g = source.demo.group_id;
  // A webhook endpoint, so a sale makes delivery rows (made by a trigger on events: the copy must not make them again).
  const hook = await source.post(`/api/v1/groups/${g}/webhook_endpoints`, source.demo.keys.manage_webhooks, { url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
  const sale = await source.post(`/api/v1/groups/${g}/transaction`, source.demo.keys.manage_transactions, saleBody(source.demo.processor_id, { orderId: 'before-copy' }));
  assert.equal(sale.status, 200, JSON.stringify(sale.body));
  const before = await answers(source);
  // Where a stream stood, and what a client resuming from an earlier position receives.
  const ready = (await streamFrom(source, undefined, (e) => e.some((m) => m.event === 'ready')))
    .find((m) => m.event === 'ready')!;
  const resumeAt = String(Number(ready.id) - 3);
  const replayed = await streamFrom(source, resumeAt, (e) => e.filter((m) => m.event !== 'ready').length >= 3);
  await source.close();

  const out = await runCliJson<CopyResult>(['db', 'copy', '--from', file, '--to', target]);
  assert.ok(out.tables.length >= 38, 'every table');
  for (const t of out.tables) assert.equal(t.target_rows, t.source_rows, t.table);
  assert.ok(out.tables.find((t) => t.table === 'webhook_deliveries')!.source_rows > 0);
  assert.ok(!out.to.includes('secret'));

  // Byte for byte: every column of every row, as text on both sides (instants as the store reads them).
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    for (const shape of await tableShapes(file)) {
      // The jsonb columns' documents compared with sorted keys on both sides (jsonb keeps none);
      // floating-point columns as numbers (SQLite writes a whole REAL as `36.0`, PostgreSQL's
      // double precision as `36`: the same value); every other column as text.
      const types = await pgColumnTypes(client, shape.table);
      const float = (i: number) => types.get(shape.columns[i]!) === 'double precision';
      const asNumber = (rows: string[][]) => rows.map((row) => row.map((v, i) => (v !== null && float(i) ? String(Number(v)) : v)));
      const expected = (await sqliteRows(file, shape.table, shape.columns, shape.key)).map((row) =>
        row.map((v, i) => (v !== null && types.get(shape.columns[i]!) === 'jsonb' ? sortedJson(v) : v)),
      );
      assert.deepEqual(asNumber(await pgRows(client, shape.table, shape.columns, shape.key)), asNumber(expected), shape.table);
    }
    // Vacuumed and analyzed after the COMMIT: the visibility map set (index-only scans need it) and statistics for the planner.
    // PostgreSQL 14's statistics collector reports a VACUUM a moment after it ends: read again for a few seconds (bounded).
    const read = () =>
      client.query<{ relname: string; vacuumed: boolean; analyzed: boolean }>(
        `SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables
         WHERE relname IN ('transactions', 'transaction_daily', 'transaction_daily_dims', 'groups')`,
      );
    let stats = await read();
    for (let i = 0; i < 50 && !stats.rows.every((r) => r.vacuumed && r.analyzed); i++) {
      await new Promise((r) => setTimeout(r, 100));
      stats = await read();
    }
    assert.equal(stats.rows.length, 4);
    for (const r of stats.rows) assert.ok(r.vacuumed && r.analyzed, `${r.relname} vacuumed and analyzed`);
  } finally {
    await client.end();
  }

  const copy = await serve(target);
  try {
    assert.deepEqual(copy.demo.keys, source.demo.keys);
    assert.deepEqual(await answers(copy), before);
    // A client that followed the original resumes on the copy where it stood: the same events, same positions.
    const again = await streamFrom(copy, resumeAt, (e) => e.filter((m) => m.event !== 'ready').length >= 3);
    assert.deepEqual(again.filter((m) => m.event !== 'ready'), replayed.filter((m) => m.event !== 'ready'));
    // Then a new sale on the copy: fresh ids, and its event at the next position after the copied ones.
    const follow = streamFrom(copy, ready.id, (e) => e.some((m) => m.event === 'transaction.approved'));
    const fresh = await copy.post(`/api/v1/groups/${g}/transaction`, copy.demo.keys.manage_transactions, saleBody(copy.demo.processor_id, { orderId: 'after-copy' }));
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.notEqual(fresh.body.id, sale.body.id);
    const events = (await follow).filter((m) => m.event !== 'ready');
    assert.equal(events.length, 1, 'nothing copied is sent again');
    assert.equal(Number(events[0]!.id), Number(ready.id) + 1, 'the next position');
    assert.equal(events[0]!.data.data.object.id, fresh.body.id);
    const deliveries = await copy.p.db.all<{ id: number }>('SELECT id FROM webhook_deliveries ORDER BY id');
    assert.equal(new Set(deliveries.map((d) => d.id)).size, deliveries.length);
    assert.equal(deliveries.at(-1)!.id, out.sequences.find((s) => s.table === 'webhook_deliveries')!.next, 'the delivery counter continues after the copied ids');
  } finally {
    await copy.close();
  }
});

test('a target that holds data is refused (exit 1, nothing written) unless --replace; a source at another version is refused', async () => {
  const file = sqliteFile();
  const target = pgUrl();
  await runCliJson(['init', '--demo'], { db: file });
  await runCliJson(['db', 'copy', '--from', file, '--to', target]);
  const refused = await runCli(['db', 'copy', '--from', file, '--to', target]);
  assertUserError(refused, /the target already holds data \(table \w+ has rows\).*--replace/s);
  const replaced = await runCliJson<CopyResult>(['db', 'copy', '--from', file, '--to', target, '--replace']);
  assert.ok(replaced.tables.every((t) => t.source_rows === t.target_rows));

  assertUserError(await runCli(['db', 'copy', '--from', file, '--to', sqliteFile()]), /--to.*postgres:\/\//);
  assertUserError(await runCli(['db', 'copy', '--from', '/no/such/file.db', '--to', pgUrl()]), /--from \/no\/such\/file\.db: no such database file/);

  // A source one version behind: the user is told to migrate it first; the target stays empty.
  const old = new sqlite3.Database(file);
  await new Promise<void>((resolve, reject) => old.run('DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)', (err) => (err ? reject(err) : resolve())));
  await new Promise((r) => old.close(r));
  const empty = pgUrl();
  const behind = await runCli(['db', 'copy', '--from', file, '--to', empty, '--json']);
  assert.equal(behind.code, 1);
  assert.match(JSON.parse(behind.stdout).error.message, /the source is at schema version \d+, this payctl at \d+: open it once/);
});

test('a 100k-row database: counts verified, reports and a customer answer the same on the copy', async () => {
  const file = sqliteFile();
  const target = pgUrl();
  await runCliJson(['init', '--demo'], { db: file });
  await runCliJson(['dev', 'seed', '--transactions', '100000'], { db: file });
  const source = await serve(file);
  const before = await answers(source);
  await source.close();

  const out = await runCliJson<CopyResult>(['db', 'copy', '--from', file, '--to', target, '--batch-rows', '4000']);
  assert.ok(out.tables.find((t) => t.table === 'transactions')!.target_rows >= 100_000);
  assert.ok(out.tables.every((t) => t.source_rows === t.target_rows));

  const copy = await serve(target);
  try {
    assert.deepEqual(await answers(copy), before);
    const fresh = await copy.post(`/api/v1/groups/${copy.demo.group_id}/transaction`, copy.demo.keys.manage_transactions, saleBody(copy.demo.processor_id, { orderId: 'after-big-copy' }));
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
  } finally {
    await copy.close();
  }
});
