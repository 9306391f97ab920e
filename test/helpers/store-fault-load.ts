// The fault suite of the store (docs/decisions.md#store-outage, test/reliability/
// store-*.soak.ts): one harness, a fault per case. Servers (one, or two on one
// PostgreSQL database) take sales from clients that each send their own Idempotency-Key
// and retry a 503 with the same key after its Retry-After; the case starts its fault,
// holds it, ends it. Counted: answers by status before, during and after the fault, the
// acknowledged sales missing afterwards, keys charged twice, time from the end of the
// fault to the first success, and the jobs due during the fault: a sandbox whose
// settlement cutoff and one webhook retry fall due while the store is away must settle
// once and deliver once, after it (a receiver counts deliveries by webhook-id).
import './env.js';
import assert from 'node:assert/strict';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { saleBody } from './bodies.js';
import { report } from './report.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { ADMIN, type SandboxReply } from './sandboxes.js';

export const CLIENTS = 8;
const DAY = 86_400_000;
/** The receiver answers the jobs' sandbox's first attempts 500 (the last retry falls due in the fault). */
const FAILED_ATTEMPTS = 2;

export interface FaultCase {
  /** RESULT line name. */
  name: string;
  /** What is done to the store, in words (the RESULT line, RELIABILITY.md). */
  fault: string;
  /** The database (a SQLite path or a PostgreSQL URL) the servers use. */
  db: string;
  /** Servers on the database (2: two platforms, as two processes would be). */
  servers: 1 | 2;
  /** How long the fault is held (ms). */
  holdMs: number;
  inject(): Promise<void>;
  /** Ends the fault; with `restart`, while the servers are stopped. */
  recover(): Promise<void>;
  /**
   * Hold new requests while `inject` runs (the ones in flight finish): for a fault that
   * must win a race with the servers' own writes to set in (another process's BEGIN
   * IMMEDIATE waits for a gap between write batches that steady load may not leave).
   */
  quiesce?: boolean;
  /**
   * A fault that needs the operator (a disk the kernel made read-only: only an unmount
   * clears it): the servers are stopped, `recover` runs, and they start again on their
   * ports. Requests meanwhile find no server (counted as status -1 in `restart`).
   */
  restart?: boolean;
  /**
   * Whether the store is away for the whole fault (default true): then its 503s must show
   * and the jobs due in it must run after it. False for a fault the store absorbs between
   * blows (backends ended again and again): the jobs then run once, whenever they can.
   */
  away?: boolean;
  /** More numbers for the RESULT line, read after the run. */
  extra?(): Record<string, unknown>;
}

type Counts = Record<string, number>;

/** Run a fault case under load; asserts and reports. */
export async function runFaultCase(c: FaultCase): Promise<void> {
  const platforms: Platform[] = [await openPlatform({ db: c.db })];
  const demo: DemoOutput = await seedDemo(platforms[0]!);
  if (c.servers === 2) platforms.push(await openPlatform({ db: c.db }));
  const serve = (p: Platform, port = 0) => startServer({ platform: p, port, tickMs: 1000, accessLog: 'off', adminToken: ADMIN });
  const servers: RunningServer[] = await Promise.all(platforms.map((p) => serve(p)));
  const closeAll = async () => {
    for (const s of servers) await s.close();
    for (const pl of platforms) await pl.close();
  };
  const receiver = await startReceiver();
  const phase = { now: 'before' as 'before' | 'fault' | 'restart' | 'after', faultStarted: 0, injected: 0, faultEnded: 0, firstSuccessAfter: -1 };
  const counts: Record<string, Counts> = { before: {}, fault: {}, restart: {}, after: {} };
  const causes: Counts = {};
  const acknowledged = new Map<string, string>(); // order id → transaction id
  const unexpected: string[] = [];
  let stop = false;
  let n = 0;
  let gate: Promise<void> | undefined;
  const client = async (k: number) => {
    while (!stop) {
      const orderId = `fault-${k}-${n++}`;
      const url = `${servers[n % servers.length]!.url}/api/v1/groups/${demo.group_id}/transaction`;
      // The same key until an answer other than 503 (a client following Retry-After).
      for (;;) {
        await gate;
        let status = 0;
        let body: { id?: string; error?: { type: string; message: string } } = {};
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
        } catch (err) {
          status = -1; // no answer within 30 s, or the connection failed: never expected
          body = { error: { type: 'no_answer', message: String(err) } };
        }
        const bucket = counts[phase.now]!;
        bucket[status] = (bucket[status] ?? 0) + 1;
        if (status === 200) {
          acknowledged.set(orderId, body.id!);
          if (phase.now === 'after' && phase.firstSuccessAfter < 0) phase.firstSuccessAfter = performance.now() - phase.faultEnded;
          break;
        }
        if (status === 503 && body.error?.type === 'store_unavailable') {
          const cause = /unavailable: (.*?);/.exec(body.error.message)?.[1] ?? body.error.message;
          causes[cause] = (causes[cause] ?? 0) + 1;
        } else if ((status === -1 || status === 503) && phase.now === 'restart') {
          // no server (or one shutting down: 503 unavailable) while they restart: expected, retried
        } else if (unexpected.length < 10) unexpected.push(`${status} ${JSON.stringify(body)}`);
        if (stop) break;
        await new Promise((r) => setTimeout(r, Math.min(Math.max(retryAfter, 0.1), 1) * 1000));
      }
    }
  };
  // A reader beside the writers: the first acknowledged sale read back every 100 ms (reads go on while writes are refused, where the store allows).
  const reads: Record<string, Counts> = { before: {}, fault: {}, restart: {}, after: {} };
  const reader = async () => {
    while (!stop) {
      const first = acknowledged.values().next();
      if (!first.done) {
        let status = -1;
        try {
          const res = await fetch(`${servers[0]!.url}/api/v1/groups/${demo.group_id}/transaction/${first.value}`, {
            headers: { authorization: demo.keys.manage_transactions },
            signal: AbortSignal.timeout(30_000),
          });
          status = res.status;
          const body = (await res.json()) as { error?: { type: string } };
          if (status !== 200 && !(status === 503 && body.error?.type === 'store_unavailable') && phase.now !== 'restart' && unexpected.length < 10) {
            unexpected.push(`read: ${status} ${JSON.stringify(body)}`);
          }
        } catch (err) {
          if (phase.now !== 'restart' && unexpected.length < 10) unexpected.push(`read: no answer ${String(err)}`);
        }
        reads[phase.now]![status] = (reads[phase.now]![status] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const load = [...Array.from({ length: CLIENTS }, (_, k) => client(k)), reader()];
  let jobs: JobsOutcome | undefined;
  let missing = -1;
  let twice = -1;
  let resumed: Awaited<ReturnType<JobsOutcome['check']>> | undefined;
  try {
    try {
      await new Promise((r) => setTimeout(r, 2_000));
      // Due a third of the fault in (at most 4 s): after whatever time the fault takes to set in (a lock to take, a disk to fill).
      const due = await jobsDueInFault(servers[0]!, receiver, platforms[0]!, Math.min(4_000, c.holdMs / 3));
      await due.arm();
      phase.now = 'fault';
      phase.faultStarted = performance.now();
      let open = () => {};
      if (c.quiesce) gate = new Promise<void>((r) => (open = r));
      await c.inject();
      open();
      gate = undefined;
      phase.injected = performance.now();
      await new Promise((r) => setTimeout(r, c.holdMs));
      if (c.restart) {
        phase.now = 'restart';
        const ports = servers.map((sv) => Number(new URL(sv.url).port));
        await closeAll();
        await c.recover();
        for (let i = 0; i < platforms.length; i++) platforms[i] = await openPlatform({ db: c.db });
        for (let i = 0; i < servers.length; i++) servers[i] = await serve(platforms[i]!, ports[i]);
      } else await c.recover();
      phase.faultEnded = performance.now();
      phase.now = 'after';
      const deadline = performance.now() + 60_000;
      while (phase.firstSuccessAfter < 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      jobs = await due.outcome(phase.faultEnded, deadline);
      await new Promise((r) => setTimeout(r, 3_000)); // room for anything done twice to show
    } finally {
      stop = true;
      await Promise.all(load);
    }
    // Every acknowledged sale is there, once; no order id (= key) has two transactions.
    const p = platforms[0]!;
    const rows = await p.db.all<{ id: string; order_id: string }>("SELECT id, order_id FROM transactions WHERE order_id LIKE 'fault-%'");
    const byOrder = new Map<string, string[]>();
    for (const r of rows) byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), r.id]);
    missing = [...acknowledged].filter(([order, id]) => !byOrder.get(order)?.includes(id)).length;
    twice = [...byOrder.values()].filter((ids) => ids.length > 1).length;
    resumed = await jobs.check(p);
  } finally {
    await closeAll().catch(() => undefined);
    await receiver.close();
  }
  report(c.name, {
    fault: c.fault,
    servers: c.servers,
    clients: CLIENTS,
    fault_ms: Math.round(phase.faultEnded - phase.faultStarted),
    fault_set_in_ms: Math.round(phase.injected - phase.faultStarted),
    answers_before: counts.before,
    answers_during_fault: counts.fault,
    ...(c.restart ? { answers_while_restarting: counts.restart } : {}),
    answers_after: counts.after,
    causes_503: causes,
    reads_during_fault: reads.fault,
    acknowledged: acknowledged.size,
    acknowledged_missing: missing,
    keys_charged_twice: twice,
    first_success_after_fault_ms: Math.round(phase.firstSuccessAfter),
    jobs: resumed,
    ...c.extra?.(),
  });
  assert.deepEqual(unexpected, [], 'only 200 or 503 store_unavailable, always an answer');
  assert.equal(missing, 0, 'acknowledged sales missing');
  assert.equal(twice, 0, 'keys charged twice');
  assert.ok(phase.firstSuccessAfter >= 0, 'a sale succeeded after the fault');
  const away = c.away !== false;
  if (away) assert.ok((counts.fault['503'] ?? 0) > 0, 'the fault was seen as 503s');
  assert.equal(resumed.settlement_batches, 1, 'the settlement due in the fault ran once');
  assert.equal(resumed.settled_transactions, 1);
  assert.deepEqual(resumed.webhooks_by_type, { 'transaction.approved': { 500: FAILED_ATTEMPTS, 200: 1 }, 'transaction.settled': { 200: 1 }, 'settlement_batch.closed': { 200: 1 } });
  assert.deepEqual(resumed.webhook_ids_delivered_twice, [], 'each webhook-id answered 2xx once');
  if (away) {
    assert.ok(resumed.settled_after_fault_ms >= 0, 'settled after the fault, not before');
    assert.ok(resumed.retry_delivered_after_fault_ms >= 0, 'the webhook retry due in the fault was delivered after it');
  }
}

interface JobsOutcome {
  check(p: Platform): Promise<{
    settlement_batches: number;
    settled_transactions: number;
    settled_after_fault_ms: number;
    retry_delivered_after_fault_ms: number;
    webhooks_by_type: Record<string, Record<number, number>>;
    webhook_ids_delivered_twice: string[];
  }>;
}

/**
 * A sandbox whose settlement cutoff and one webhook retry fall due `dueIntoFaultMs` into
 * the fault: its clock is set to 305 s before a midnight and a sale made there is
 * delivered at once to a receiver that answers its first two requests 500, so the third
 * attempt is due 5 s + 5 min after the sale (RETRY_DELAYS_MS), at the midnight; `arm`
 * (just before the fault) sets the clock to `dueIntoFaultMs` before the midnight.
 */
async function jobsDueInFault(server: RunningServer, receiver: Receiver, p: Platform, dueIntoFaultMs: number) {
  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const arrivals: Array<{ id: string; type: string; status: number; at: number }> = [];
  receiver.answer((r) => {
    const status = arrivals.length < FAILED_ATTEMPTS ? 500 : 200;
    arrivals.push({ id: r.headers['webhook-id']!, type: (JSON.parse(r.body) as { type: string }).type, status, at: performance.now() });
    return { status, body: status === 200 ? 'ok' : 'try again' };
  });
  const midnight = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
  const sb = (await api('POST', '/api/v1/sandboxes', ADMIN, { clock: new Date(midnight - 3_600_000).toISOString() })) as SandboxReply;
  await api('POST', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, sb.keys.manage_webhooks!, { url: receiver.url, enabled_events: ['*'] });
  await api('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, ADMIN, { set: new Date(midnight - 305_000).toISOString() });
  await api('POST', `/api/v1/groups/${sb.group_id}/transaction`, sb.keys.manage_transactions!, saleBody(sb.processor_id, { orderId: 'jobs-sale' }));
  // Both failed attempts recorded (the third scheduled 5 min on) before the clock moves.
  for (;;) {
    const d = await p.db.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE group_id = ? AND attempts >= ? AND status = 'pending'", [sb.group_id, FAILED_ATTEMPTS]);
    if (Number(d!.n) > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    async arm() {
      await api('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, ADMIN, { set: new Date(midnight - dueIntoFaultMs).toISOString() });
    },
    /** Waits (until `deadline`) for the settlement's event and the retry to arrive. */
    async outcome(faultEnded: number, deadline: number): Promise<JobsOutcome> {
      const ok = (type: string) => arrivals.some((a) => a.type === type && a.status === 200);
      const retried = () => arrivals.some((a, i) => i >= FAILED_ATTEMPTS && a.id === arrivals[0]!.id);
      while (!(ok('settlement_batch.closed') && ok('transaction.settled') && retried()) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const after = (found: { at: number } | undefined) => (found && found.at >= faultEnded ? Math.round(found.at - faultEnded) : -1);
      return {
        async check(store: Platform) {
          const batches = await store.db.all('SELECT id FROM settlement_batches WHERE group_id = ?', [sb.group_id]);
          const settled = await store.db.get<{ n: number }>('SELECT count(*) AS n FROM transactions WHERE group_id = ? AND settlement_batch_id IS NOT NULL', [sb.group_id]);
          const okById = new Map<string, number>();
          for (const a of arrivals) if (a.status === 200) okById.set(a.id, (okById.get(a.id) ?? 0) + 1);
          const byType: Record<string, Record<number, number>> = {};
          for (const a of arrivals) (byType[a.type] ??= {})[a.status] = (byType[a.type]![a.status] ?? 0) + 1;
          return {
            settlement_batches: batches.length,
            settled_transactions: Number(settled!.n),
            settled_after_fault_ms: after(arrivals.find((a) => a.type === 'settlement_batch.closed')),
            retry_delivered_after_fault_ms: after(arrivals.find((a, i) => i >= FAILED_ATTEMPTS && a.id === arrivals[0]!.id)),
            webhooks_by_type: byType,
            webhook_ids_delivered_twice: [...okById].filter(([, k]) => k > 1).map(([id]) => id),
          };
        },
      };
    },
  };
}
