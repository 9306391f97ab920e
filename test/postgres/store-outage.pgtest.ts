// PostgreSQL going away under a server, through a TCP proxy the test opens and closes
// (helpers/tcp-proxy.ts): gone → every request a 503 store_unavailable with Retry-After,
// never a 500 or a hang; back → the next request succeeds, no restart. A backend ended
// mid-write (pg_terminate_backend) costs the client nothing; a COMMIT whose answer is
// lost is resolved through the Idempotency-Key record; a server started before its
// database waits for it. Runs only in the PostgreSQL pass (test/run-postgres.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { tempDbPath } from '../helpers/platform.js';
import { saleBody } from '../helpers/bodies.js';
import { holdWrites, endSessions, openStore } from '../helpers/store.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { childEnv } from '../helpers/cli.js';
import { packageRoot } from '../../src/lib/paths.js';

const cluster = new URL(process.env.PAYCTL_TEST_PG_URL!);
let db: string;
let proxy: TcpProxy;
let p: Platform;
let demo: DemoOutput;
let server: RunningServer;

before(async () => {
  db = tempDbPath();
  proxy = new TcpProxy({ host: cluster.hostname, port: Number(cluster.port) });
  await proxy.start();
  // The journal off: its batched writes commit in the background, and a COMMIT the proxy cuts must be the request's own.
  p = await openPlatform({ db: proxy.url(db), env: { ...process.env, PAYCTL_JOURNAL: 'off' } });
  demo = await seedDemo(p);
  server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
});
after(async () => {
  await server.close();
  await p.close();
  await proxy.stop();
});

async function call(method: string, urlPath: string, body?: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { authorization: demo.keys.manage_transactions };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const res = await fetch(server.url + urlPath, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
const salePath = () => `/api/v1/groups/${demo.group_id}/transaction`;
const sale = (orderId: string, key: string) => call('POST', salePath(), saleBody(demo.processor_id, { orderId }), key);
const salesOf = async (orderId: string) => Number((await p.db.get<{ n: number }>('SELECT count(*) AS n FROM transactions WHERE order_id = ?', [orderId]))!.n);

test('PostgreSQL gone: reads and writes answer 503 store_unavailable with Retry-After; back, the next request succeeds', async () => {
  const first = await sale('gone-0', 'gone-key-0');
  assert.equal(first.status, 200, first.text);
  await proxy.stop();
  try {
    const read = await call('GET', `${salePath()}/${first.body.id}`);
    assert.equal(read.status, 503, read.text);
    assert.deepEqual(read.body, { error: { type: 'store_unavailable', message: 'the store is unavailable: the database refused the connection (is it running?); retry in 1s' } });
    assert.equal(read.headers.get('retry-after'), '1');
    const write = await sale('gone-1', 'gone-key-1');
    assert.equal(write.status, 503, write.text);
    assert.equal(write.body.error.type, 'store_unavailable');
    // Readiness says so too (a load balancer takes the server out); liveness does not.
    assert.equal((await fetch(`${server.url}/ready`)).status, 503);
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
  } finally {
    await proxy.start();
  }
  // No restart: the pool's connections were reset, and the very next requests succeed.
  const read = await call('GET', `${salePath()}/${first.body.id}`);
  assert.equal(read.status, 200, read.text);
  const write = await sale('gone-1', 'gone-key-1');
  assert.equal(write.status, 200, write.text);
  assert.equal((await fetch(`${server.url}/ready`)).status, 200);
  assert.equal(await salesOf('gone-1'), 1);
});

test('a backend ended mid-write (pg_terminate_backend): the write runs again on a new connection, answered once', async () => {
  const hold = await holdWrites(db);
  const admin = new pg.Client({ connectionString: db });
  await admin.connect();
  try {
    const pending = sale('terminated', 'terminated-key');
    // The sale's transaction waits at its events for the held lock: end that backend.
    const name = new URL(db).pathname.slice(1);
    let ended = 0;
    while (ended === 0) {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%' AND pid <> pg_backend_pid()`,
        [name],
      );
      for (const r of rows) ended += (await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [r.pid])).rows[0]!.ok ? 1 : 0;
      if (ended === 0) await new Promise((r) => setImmediate(r));
    }
    await hold.release();
    const answered = await pending;
    assert.equal(answered.status, 200, answered.text);
    assert.equal(await salesOf('terminated'), 1);
    // Every pooled connection ended at once (a restart): the next request still succeeds.
    assert.ok((await endSessions(admin, name)) > 0);
    assert.equal((await sale('after-end', 'after-end-key')).status, 200);
  } finally {
    await admin.end();
  }
});

test('a connection ended by the server just as the pool hands it out (the FATAL in the packet of its first ReadyForQuery) is a 503 or a retry, never an uncaught exception', async () => {
  // Found by the fault suite (test/reliability/store-faults.soak.ts, pg_terminate_backend
  // under load): the pool took its idle listener off at checkout and called back inside
  // the same parse of the packet, so the error came with no listener and ended the process.
  // Lanes opened at once (not after PAYCTL_PG_LANE_WAIT_MS): four writes at once take four connections.
  const store = await openStore(proxy.url(db), { ...process.env, PAYCTL_PG_LANE_WAIT_MS: '0' });
  try {
    proxy.endNextAtReady = true;
    // More reads at once than idle connections: the pool opens new ones, the first is ended at once.
    const reads = await Promise.allSettled(Array.from({ length: 4 }, () => store.all('SELECT 1 AS one')));
    assert.equal(proxy.endNextAtReady, false, 'a new connection was ended at ready');
    for (const r of reads) {
      if (r.status === 'rejected') assert.equal((r.reason as Error).name, 'StoreUnavailable', String(r.reason));
    }
    proxy.endNextAtReady = true;
    const writes = await Promise.all(Array.from({ length: 4 }, () => store.write((tx) => tx.all('SELECT 1 AS one'))));
    assert.equal(proxy.endNextAtReady, false);
    assert.equal(writes.length, 4, 'a write whose new connection was ended runs again on another');
    assert.deepEqual(await store.all('SELECT 1 AS one'), [{ one: 1 }]);
  } finally {
    proxy.endNextAtReady = false;
    await store.close();
  }
});

test('COMMIT sent and its answer lost: the request answers what was saved (the Idempotency-Key record), charged once', async () => {
  proxy.onCommit = 'after';
  const answered = await sale('commit-after', 'commit-after-key');
  assert.equal(proxy.onCommit, undefined, 'the COMMIT was cut');
  assert.equal(answered.status, 200, answered.text);
  assert.equal(answered.headers.get('idempotent-replayed'), 'true', 'answered from the saved record');
  assert.equal(answered.body.order_id, 'commit-after');
  assert.equal(await salesOf('commit-after'), 1);
  const retried = await sale('commit-after', 'commit-after-key');
  assert.equal(retried.body.id, answered.body.id);
  assert.equal(await salesOf('commit-after'), 1);
});

test('COMMIT lost before it reached the database: 503 (nothing saved), and the retry with the same key charges once', async () => {
  proxy.onCommit = 'before';
  const lost = await sale('commit-before', 'commit-before-key');
  assert.equal(proxy.onCommit, undefined, 'the COMMIT was cut');
  assert.equal(lost.status, 503, lost.text);
  assert.equal(lost.body.error.message, 'the store is unavailable: the connection to the database was lost; retry in 1s');
  assert.equal(await salesOf('commit-before'), 0);
  const retried = await sale('commit-before', 'commit-before-key');
  assert.equal(retried.status, 200, retried.text);
  assert.equal(retried.headers.get('idempotent-replayed'), null);
  assert.equal(await salesOf('commit-before'), 1);
});

test('payctl serve started before its database is reachable waits, saying why, and serves once it is', async () => {
  const made = await sale('serve-waits', 'serve-waits-key');
  const late = new TcpProxy({ host: cluster.hostname, port: Number(cluster.port) });
  await late.start();
  const url = late.url(db);
  await late.stop(); // the port is known and refuses connections
  const args = ['--tick', '0', '--access-log', 'off'];
  const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'serve', '--port', '0', ...args], { env: childEnv(args, url), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const seen = (pattern: RegExp, read: () => string, stream: NodeJS.ReadableStream) =>
    new Promise<void>((resolve, reject) => {
      const check = () => pattern.test(read()) && resolve();
      stream.on('data', check);
      child.once('exit', (code) => reject(new Error(`payctl serve exited (${code}): ${err}${out}`)));
    });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    await seen(/waiting for the store: .*refused the connection.*; trying again in 0\.5s/, () => err, child.stderr);
    await late.start();
    await seen(/payctl serving http:/, () => out, child.stdout);
    const serving = /payctl serving (http:\/\/[^\s/]+)\/api\/v1/.exec(out)![1]!;
    const res = await fetch(`${serving}${salePath()}/${made.body.id}`, { headers: { authorization: demo.keys.manage_transactions } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { order_id: string }).order_id, 'serve-waits');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await late.stop();
  }
});
