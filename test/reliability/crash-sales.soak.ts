// Crash safety of the write path: the real `payctl serve` takes sales from many
// concurrent connections (each with an Idempotency-Key) and is killed with SIGKILL at a
// random point, 20 times. After each kill: the database is whole (SQLite's
// integrity_check; PostgreSQL keeps itself whole by its WAL), every sale answered 2xx
// is there with exactly the object that was answered, and no half-written request
// exists (a transaction without its idempotency record or the reverse). Requests that were cut off are retried with the same key after the restart,
// as a client would: each executes at most once.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { demoPlatform } from '../helpers/platform.js';
import { httpJson, killHard, runLoad, spawnServe } from '../helpers/serve-process.js';
import { saleBody } from '../helpers/bodies.js';
import { assertIntact, cellText, openStore } from '../helpers/store.js';
import { report, seededRandom } from '../helpers/report.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 20);
const CONCURRENCY = Number(process.env.CRASH_CONCURRENCY ?? 32);
const MAX_ACKS_BEFORE_KILL = 600;

interface Sent {
  key: string;
  body: ReturnType<typeof saleBody>;
}

test(`kill -9 under ${CONCURRENCY}-connection sale load, ${ROUNDS} times: nothing acknowledged is lost, nothing half-written`, async () => {
  const { p, demo, dbPath } = await demoPlatform();
  await p.close();
  const key = demo.keys.manage_transactions;
  const random = seededRandom(Number(process.env.RELIABILITY_SEED ?? 10_2026));

  const acked = new Map<string, unknown>(); // transaction id → the object answered
  const ackedKey = new Map<string, string>(); // idempotency key → transaction id
  let cutOff: Sent[] = []; // sent, never answered (the kill hit them)
  let retriedReplayed = 0;
  let retriedFresh = 0;
  let totalCutOff = 0;
  let other5xx = 0;

  const send = async (srvUrl: string, s: Sent) => {
    const r = await httpJson(`${srvUrl}/api/v1/groups/${demo.group_id}/transaction`, 'POST', {
      key,
      body: s.body,
      headers: { 'idempotency-key': s.key },
    });
    return r;
  };

  let lastRoundIds: string[] = [];
  const readBack = async (url: string, ids: string[]) => {
    for (const id of ids) {
      const r = await httpJson(`${url}/api/v1/groups/${demo.group_id}/transaction/${id}`, 'GET', { key });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, acked.get(id));
    }
  };

  for (let round = 1; round <= ROUNDS; round++) {
    // The restart after the previous kill: what was acknowledged reads back as answered.
    const srv = await spawnServe({ db: dbPath });
    try {
      await readBack(srv.url, lastRoundIds);
      // What the last kill cut off: retry with the same key and body (at most one execution).
      for (const s of cutOff) {
        const r = await send(srv.url, s);
        assert.equal(r.status, 200, `retry of ${s.key}: ${r.text}`);
        if (r.headers.get('idempotent-replayed') === 'true') retriedReplayed++;
        else retriedFresh++;
        acked.set(r.body.id, r.body);
        ackedKey.set(s.key, r.body.id);
      }
      cutOff = [];

      const target = 1 + Math.floor(random() * MAX_ACKS_BEFORE_KILL);
      let roundAcks = 0;
      let reached!: () => void;
      const targetReached = new Promise<void>((r) => (reached = r));
      const inFlight = new Map<number, Sent>();
      const roundIds: string[] = [];
      const load = runLoad<void>({
        concurrency: CONCURRENCY,
        stop: () => false,
        send: async (worker, seq) => {
          const s: Sent = { key: `crash-${round}-${seq}-${randomUUID()}`, body: saleBody(demo.processor_id, { amount: 100 + (seq % 5000) }) };
          s.body = { ...s.body, order_id: s.key } as Sent['body'];
          inFlight.set(worker, s);
          const r = await send(srv.url, s); // throws when the kill cuts the connection
          inFlight.delete(worker);
          if (r.status === 200) {
            acked.set(r.body.id, r.body);
            ackedKey.set(s.key, r.body.id);
            roundIds.push(r.body.id);
            if (++roundAcks === target) reached();
          } else if (r.status >= 500) other5xx++;
          return { status: r.status };
        },
      });
      await targetReached;
      await killHard(srv);
      await load;
      cutOff = [...inFlight.values()];
      totalCutOff += cutOff.length;

      // After the crash, before any restart: the database as the kill left it.
      const db = await openStore(dbPath);
      try {
        await assertIntact(db, `round ${round}: integrity_check`);
        const idem = await db.all<{ key: string; body: unknown; status: number }>(
          "SELECT key, body, status FROM idempotency_keys WHERE group_id = ? AND key LIKE 'crash-%'",
          [demo.group_id],
        );
        const txns = await db.all<{ id: string; order_id: string }>(
          "SELECT id, order_id FROM transactions WHERE group_id = ? AND order_id LIKE 'crash-%'",
          [demo.group_id],
        );
        const byKey = new Map(idem.map((r) => [r.key, (JSON.parse(cellText(r.body)) as { id: string }).id]));
        const txnByOrder = new Map(txns.map((t) => [t.order_id, t.id]));
        assert.equal(txnByOrder.size, txns.length, 'one transaction per Idempotency-Key');
        // Every idempotency record points at its transaction, and every transaction has its record.
        for (const [k, id] of byKey) assert.equal(txnByOrder.get(k), id, `round ${round}: record ${k} without its transaction`);
        for (const [k, id] of txnByOrder) assert.equal(byKey.get(k), id, `round ${round}: transaction ${id} without its record`);
        // Every acknowledged sale is committed under its key.
        for (const [k, id] of ackedKey) assert.equal(byKey.get(k), id, `round ${round}: acknowledged ${id} lost`);
      } finally {
        await db.close();
      }
      lastRoundIds = roundIds;
    } finally {
      if (srv.child.exitCode === null && srv.child.signalCode === null) await killHard(srv);
    }
  }

  // The cut-off requests of the last round, then a full read-back of everything acknowledged.
  const last = await spawnServe({ db: dbPath });
  try {
    await readBack(last.url, lastRoundIds);
    for (const s of cutOff) {
      const r = await send(last.url, s);
      assert.equal(r.status, 200);
      if (r.headers.get('idempotent-replayed') === 'true') retriedReplayed++;
      else retriedFresh++;
      acked.set(r.body.id, r.body);
      ackedKey.set(s.key, r.body.id);
    }
    let present = 0;
    for (const [id, obj] of acked) {
      const r = await httpJson(`${last.url}/api/v1/groups/${demo.group_id}/transaction/${id}`, 'GET', { key });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, obj);
      present++;
    }
    assert.equal(other5xx, 0, 'no 5xx while the server was up');
    const db = await openStore(dbPath);
    const rows = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE order_id LIKE 'crash-%'"))!.n;
    await db.close();
    assert.equal(rows, ackedKey.size, 'exactly one transaction per key sent and answered');
    report('crash-sales', {
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
      acknowledged: acked.size,
      present,
      corrupt: 0,
      cut_off_in_flight: totalCutOff,
      retried_replayed: retriedReplayed,
      retried_executed: retriedFresh,
      transactions: rows,
    });
  } finally {
    last.child.kill('SIGTERM');
    await last.exited;
  }
});
