// The store fails under load (DESIGN.md "When the store fails"): clients keep sending
// sales, each with its own Idempotency-Key, retrying a 503 with the same key after its
// Retry-After. SQLite: another process holds the write lock for 12 s (past the 10 s busy
// timeout). PostgreSQL: two servers on one database lose it for 4 s (a TCP proxy in front
// of it closes: connections reset, new ones refused), then it is back. Counted: answers
// by status during the fault, acknowledged sales missing afterwards (0), keys charged
// twice (0), time from the end of the fault to the first success. RELIABILITY.md.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { tempDbPath, testStore } from '../helpers/platform.js';
import { saleBody } from '../helpers/bodies.js';
import sqlite3 from 'sqlite3';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { report } from '../helpers/report.js';

const CLIENTS = 8;
const FAULT_MS = testStore === 'postgres' ? 4_000 : 12_000;

test(`store outage under load (${testStore}): 503s with Retry-After, nothing acknowledged lost, no key charged twice, back by itself`, async () => {
  const db = tempDbPath();
  let proxy: TcpProxy | undefined;
  let target = db;
  if (testStore === 'postgres') {
    const cluster = new URL(process.env.PAYCTL_TEST_PG_URL!);
    proxy = new TcpProxy({ host: cluster.hostname, port: Number(cluster.port) });
    await proxy.start();
    target = proxy.url(db);
  }
  const platforms: Platform[] = [await openPlatform({ db: target })];
  const demo: DemoOutput = await seedDemo(platforms[0]!);
  if (proxy) platforms.push(await openPlatform({ db: target }));
  const servers: RunningServer[] = await Promise.all(platforms.map((p) => startServer({ platform: p, port: 0, tickMs: 1000, accessLog: 'off' })));
  const phase = { now: 'before' as 'before' | 'fault' | 'after', faultEnded: 0, firstSuccessAfter: -1 };
  const counts: Record<string, Record<string, number>> = { before: {}, fault: {}, after: {} };
  const acknowledged = new Map<string, string>(); // order id → transaction id
  const statuses = new Set<number>();
  let stop = false;
  let n = 0;
  const client = async (c: number) => {
    while (!stop) {
      const orderId = `outage-${c}-${n++}`;
      const url = `${servers[n % servers.length]!.url}/api/v1/groups/${demo.group_id}/transaction`;
      // The same key until an answer other than 503 (a client following Retry-After).
      for (;;) {
        let status = 0;
        let body: { id?: string; error?: { type: string } } = {};
        let retryAfter = 1;
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: demo.keys.manage_transactions, 'content-type': 'application/json', 'idempotency-key': orderId },
            body: JSON.stringify(saleBody(demo.processor_id, { orderId })),
            signal: AbortSignal.timeout(30_000),
          });
          status = res.status;
          body = (await res.json()) as typeof body;
          retryAfter = Number(res.headers.get('retry-after') ?? 1);
        } catch {
          status = -1; // no answer (never expected: counted)
        }
        const bucket = counts[phase.now]!;
        bucket[status] = (bucket[status] ?? 0) + 1;
        statuses.add(status);
        if (status === 200) {
          acknowledged.set(orderId, body.id!);
          if (phase.now === 'after' && phase.firstSuccessAfter < 0) phase.firstSuccessAfter = performance.now() - phase.faultEnded;
          break;
        }
        assert.equal(status, 503, `only 200 or 503 store_unavailable: ${status} ${JSON.stringify(body)}`);
        assert.equal(body.error?.type, 'store_unavailable');
        if (stop) break;
        await new Promise((r) => setTimeout(r, Math.min(retryAfter, 1) * 1000));
      }
    }
  };
  const load = Array.from({ length: CLIENTS }, (_, c) => client(c));
  try {
    await new Promise((r) => setTimeout(r, 2_000));
    phase.now = 'fault';
    const hold = proxy ? undefined : await holdSqliteLock(db);
    await proxy?.stop();
    await new Promise((r) => setTimeout(r, FAULT_MS));
    await proxy?.start();
    await hold?.release();
    phase.faultEnded = performance.now();
    phase.now = 'after';
    while (phase.firstSuccessAfter < 0) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 3_000));
  } finally {
    stop = true;
    await Promise.all(load);
  }
  // Every acknowledged sale is there, once; no order id (= key) has two transactions.
  const p = platforms[0]!;
  const rows = await p.db.all<{ id: string; order_id: string }>("SELECT id, order_id FROM transactions WHERE order_id LIKE 'outage-%'");
  const byOrder = new Map<string, string[]>();
  for (const r of rows) byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), r.id]);
  const missing = [...acknowledged].filter(([order, id]) => !byOrder.get(order)?.includes(id)).length;
  const twice = [...byOrder.values()].filter((ids) => ids.length > 1).length;
  for (const s of servers) await s.close();
  for (const pl of platforms) await pl.close();
  await proxy?.stop();
  report('store-outage', {
    fault: proxy ? `PostgreSQL unreachable ${FAULT_MS / 1000} s (connections reset, new refused), 2 servers` : `SQLite write lock held by another process ${FAULT_MS / 1000} s`,
    clients: CLIENTS,
    answers_before: counts.before,
    answers_during_fault: counts.fault,
    answers_after: counts.after,
    acknowledged: acknowledged.size,
    acknowledged_missing: missing,
    keys_charged_twice: twice,
    first_success_after_fault_ms: Math.round(phase.firstSuccessAfter),
  });
  assert.equal(missing, 0);
  assert.equal(twice, 0);
  assert.ok(!statuses.has(500) && !statuses.has(-1));
  assert.ok((counts.fault['503'] ?? 0) > 0, 'the fault was seen as 503s');
});

/** Another process's hold of SQLite's write lock: a connection of its own in BEGIN IMMEDIATE until released. */
async function holdSqliteLock(file: string): Promise<{ release(): Promise<void> }> {
  const other = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => other.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE');
  return {
    async release() {
      await exec('ROLLBACK');
      await new Promise<void>((resolve) => other.close(() => resolve()));
    },
  };
}
