// Graceful shutdown: SIGTERM to a real `payctl serve` under load. A request the server
// had started (held open mid-body across the signal) still gets its complete answer;
// new connections are refused; every other request is answered 2xx or a clean 503, or
// never reached the server (then nothing of it was committed); the database is closed
// with its WAL merged (the -wal file absent or empty) and the exit code is 0.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { demoPlatform } from '../helpers/platform.js';
import { httpJson, runLoad, spawnServe } from '../helpers/serve-process.js';
import { saleBody } from '../helpers/bodies.js';
import { assertIntact, openStore } from '../helpers/store.js';
import { report } from '../helpers/report.js';

/** A POST that sends its headers (Expect: 100-continue) and holds its body until `finish()`. */
function heldRequest(url: string, path: string, key: string, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const u = new URL(url);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    path,
    method: 'POST',
    agent: false,
    headers: { authorization: key, 'content-type': 'application/json', 'content-length': payload.length, expect: '100-continue' },
  });
  // The server answers 100 Continue as it emits the request, i.e. once the dispatcher holds it.
  const started = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.once('error', reject);
  });
  req.flushHeaders();
  return {
    started,
    response,
    finish: () => {
      req.write(payload.subarray(0, 10));
      req.end(payload.subarray(10));
    },
  };
}

/** A request on a brand-new connection: 'refused' when the connection is refused. */
function freshConnectionStatus(url: string, path: string, key: string): Promise<number | 'refused'> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET', agent: false, headers: { authorization: key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // A closed listener refuses the connection; one the kernel accepted just before the
    // close is reset: both mean the server took no new request.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET' ? resolve('refused') : reject(err),
    );
    req.end();
  });
}

test('SIGTERM under load: in-flight requests finish, new ones are refused, the WAL is merged, exit 0', async () => {
  const { p, demo } = await demoPlatform();
  const dbPath = p.db.location;
  await p.close();
  const key = demo.keys.manage_transactions;
  const txnPath = `/api/v1/groups/${demo.group_id}/transaction`;
  const srv = await spawnServe({ db: dbPath });

  const held = heldRequest(srv.url, txnPath, key, saleBody(demo.processor_id, { orderId: 'held-across-sigterm', amount: 4242 }));
  await held.started;

  const acked = new Map<string, string>(); // Idempotency-Key → transaction id
  const unanswered: string[] = [];
  const bad: string[] = [];
  let unavailable = 0;
  let gone = false;
  let enough!: () => void;
  const warmedUp = new Promise<void>((r) => (enough = r));
  const load = runLoad<void>({
    concurrency: 16,
    stop: () => gone,
    stopOnNetworkError: false,
    send: async () => {
      const k = `term-${randomUUID()}`;
      try {
        const r = await httpJson(srv.url + txnPath, 'POST', { key, body: saleBody(demo.processor_id, { orderId: k }), headers: { 'idempotency-key': k } });
        if (r.status === 200) {
          acked.set(k, r.body.id);
          if (acked.size === 200) enough();
        } else if (r.status === 503 && r.body?.error?.type === 'unavailable') unavailable++;
        else bad.push(`${r.status} ${r.text}`);
        return { status: r.status };
      } catch (err) {
        unanswered.push(k);
        // Once connections are refused the server is gone: the workers stop.
        if ((err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') gone = true;
        throw err;
      }
    },
  });
  await warmedUp;

  srv.child.kill('SIGTERM');
  await srv.waitForStderr('SIGTERM');
  const fresh = await freshConnectionStatus(srv.url, `${txnPath}/x`, key);
  assert.ok(fresh === 'refused' || fresh === 503, `a new connection after SIGTERM got ${fresh}`);

  held.finish();
  const heldReply = await held.response;
  assert.equal(heldReply.status, 200, heldReply.text);
  const heldTxn = JSON.parse(heldReply.text) as { id: string; status: string };
  assert.equal(heldTxn.status, 'pending');

  const exit = await srv.exited;
  await load;
  assert.deepEqual(exit, { code: 0, signal: null }, srv.stderr());
  assert.match(srv.stderr(), /stopped cleanly/);
  assert.deepEqual(bad, [], 'every answer is 2xx or a clean 503');

  const wal = `${dbPath}-wal`;
  assert.ok(!existsSync(wal) || statSync(wal).size === 0, `-wal left with ${existsSync(wal) ? statSync(wal).size : 0} bytes`);

  const db = await openStore(dbPath);
  try {
    await assertIntact(db);
    assert.ok(await db.get('SELECT id FROM transactions WHERE id = ?', [heldTxn.id]), 'the held request committed');
    for (const [k, id] of acked) {
      const row = await db.get<{ body: string }>('SELECT body FROM idempotency_keys WHERE key = ?', [k]);
      assert.equal(row && (JSON.parse(row.body) as { id: string }).id, id, `acknowledged ${k} present`);
    }
    // A request that got no answer never reached the dispatcher: nothing of it was committed.
    for (const k of unanswered) {
      assert.equal(await db.get('SELECT key FROM idempotency_keys WHERE key = ?', [k]), undefined, `${k} committed but not answered`);
    }
  } finally {
    await db.close();
  }
  report('graceful-shutdown', {
    load_connections: 16,
    acknowledged: acked.size,
    clean_503: unavailable,
    unanswered_never_committed: unanswered.length,
    held_request: heldReply.status,
    new_connection: fresh,
    exit_code: exit.code,
    wal_bytes_after: existsSync(wal) ? statSync(wal).size : 0,
  });
});
