// Three real `payctl serve` processes on one PostgreSQL database, as behind a load
// balancer: sales through all three, a webhook receiver, `payctl listen` attached to one
// server receiving what the others commit, subscriptions made across them, a clock move
// through one — and that server killed (kill -9) while the move's billing runs. The two
// left finish it: every subscription billed exactly once per period, every event
// delivered (twice only for an attempt the dead server made and could not record: the
// documented at-least-once retry after its lease lapses), nothing lost. The truth is
// read from the database; PostgreSQL pass only.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { packageRoot } from '../../src/lib/paths.js';
import { tempDbPath } from '../helpers/platform.js';
import { httpJson, killHard, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import http from 'node:http';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { saleBody } from '../helpers/bodies.js';

const ADMIN = 'padm_three_servers_admin';
const SALES = 30;
const SUBS = 90;
const DAYS = 30;
/**
 * Shorter leases than the default: a delivery the killed server held is taken over
 * sooner. Not much shorter: an attempt must still be recorded before its lease ends on a
 * loaded machine, or a survivor sends it again (at least once, but not what is tested).
 */
const LEASE_MS = 8000;

/** Wait for a condition (polled, never a fixed sleep); fails with `what` after `ms`. */
async function until<T>(what: string, read: () => Promise<T> | T, ok: (v: T) => boolean, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The local TCP ports of process `pid`'s sockets (Linux /proc): which server a request came from. */
function portsOf(pid: number): Set<number> {
  const inodes = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    // gone
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9]!)) ports.add(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

interface Receipt {
  event: string;
  at: number;
  /** Sent by the server that is killed (told while it lives). */
  fromA: boolean;
  port: number;
}

/**
 * A webhook receiver that records each event id, when, and whether it came from process
 * `a` (told by its sockets' ports when the connection is accepted, while `a` lives);
 * `hold()` keeps its answers to `a` back until `release()` (the others are answered at once).
 */
async function startHookReceiver(a: () => number) {
  const receipts: Receipt[] = [];
  const connFromA = new WeakMap<object, boolean>();
  let held: Array<() => void> | undefined;
  let onReceipt: ((r: Receipt) => void) | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { event: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id, at: Date.now(), fromA: connFromA.get(req.socket) === true, port: req.socket.remotePort! };
      receipts.push(r);
      onReceipt?.(r);
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (held && r.fromA) held.push(answer);
      else answer();
    });
  });
  server.on('connection', (socket) => connFromA.set(socket, portsOf(a()).has(socket.remotePort!)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    receipts,
    hold: (seen?: (r: Receipt) => void) => {
      held = [];
      onReceipt = seen;
    },
    release: () => {
      const answers = held ?? [];
      held = undefined;
      onReceipt = undefined;
      for (const a of answers) a();
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** `payctl listen --json` on `apiUrl`: the events it printed, in order. */
function startListen(apiUrl: string, key: string, groupId: string, dataDir: string) {
  const child = spawn(
    process.execPath,
    [path.join(packageRoot, 'bin/run.js'), 'listen', '--api-url', apiUrl, '--api-key', key, '--group', groupId, '--events', 'transaction.approved', '--json'],
    { env: { ...process.env, NO_COLOR: '1', PAYCTL_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const events: Array<{ id: string; type: string; data: { object: { id: string } } }> = [];
  let buf = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line) as (typeof events)[number]);
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  return { events, stderr: () => err, stop: async () => { if (child.exitCode === null) child.kill('SIGTERM'); await exited; } };
}

test('three servers on one database; the one billing a clock move is killed -9; the others finish: each period billed once, nothing lost', async (t) => {
  const url = tempDbPath();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payctl-3srv-'));
  let aPid = 0;
  const receiver = await startHookReceiver(() => aPid);
  const env = { PAYCTL_ADMIN_TOKEN: ADMIN, PAYCTL_WEBHOOK_LEASE_MS: String(LEASE_MS), PAYCTL_CLOCK_ANSWER_MS: '0', PAYCTL_DATA_DIR: dataDir };
  // Started together on a new database: the migrations run once, under the advisory lock.
  const servers: ServeProcess[] = await Promise.all([0, 1, 2].map(() => spawnServe({ db: url, args: ['--tick', '200', '--access-log', 'off'], env })));
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const q = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[];
  const one = async (sql: string, params: unknown[] = []) => Number(Object.values((await q<Record<string, unknown>>(sql, params))[0]!)[0]);
  let listen: ReturnType<typeof startListen> | undefined;
  try {
    const [a, b, c] = servers as [ServeProcess, ServeProcess, ServeProcess];
    aPid = a.pid;
    const sb = await httpJson(`${a.url}/api/v1/sandboxes`, 'POST', { key: ADMIN, body: { clock: '2030-01-01T00:00:00Z' } });
    assert.equal(sb.status, 201, sb.text);
    const g: string = sb.body.group_id;
    const keys = sb.body.keys as Record<string, string>;
    const api = (s: ServeProcess) => `${s.url}/api/v1/groups/${g}`;

    const hook = await httpJson(`${api(b)}/webhook_endpoints`, 'POST', { key: keys.manage_webhooks, body: { url: receiver.url, enabled_events: ['transaction.approved'] } });
    assert.equal(hook.status, 200, hook.text);
    listen = startListen(c.url, keys.manage_webhooks!, g, dataDir);
    // It follows from where the stream is when it connects: sell once it is there.
    await until('listen to connect', () => listen!.stderr(), (e) => e.includes('Ready: listening'), 30_000);

    // Sales through all three servers.
    const sales = await Promise.all(
      Array.from({ length: SALES }, (_, i) => httpJson(`${api(servers[i % 3]!)}/transaction`, 'POST', { key: keys.manage_transactions, body: saleBody(sb.body.processor_id, { amount: 100 + i }) })),
    );
    for (const s of sales) assert.equal(s.status, 200, s.text);
    const saleIds = new Set(sales.map((s) => s.body.id as string));
    assert.equal(await one('SELECT COUNT(*) FROM transactions WHERE group_id = $1 AND plan_id IS NULL', [g]), SALES);
    // `listen` on the third server hears the sales committed by all three (the event table is the truth, across servers).
    await until('listen to print every sale', () => listen!.events.filter((e) => saleIds.has(e.data.object.id)).length, (n) => n === SALES, 30_000);

    // Subscriptions made across the servers (each pays its first day at once).
    const recurring = (s: ServeProcess) => `${api(s)}/processing/${sb.body.linked_account_id}/recurring`;
    const plan = await httpJson(`${recurring(a)}/plans`, 'POST', { key: keys.manage_transactions, body: { name: 'Daily', amount: 700, billing_cycle: 'daily', duration: 0 } });
    assert.equal(plan.status, 200, plan.text);
    const customer = await httpJson(`${api(b)}/customers`, 'POST', { key: keys.manage_customers, body: { first_name: 'Three', last_name: 'Servers' } });
    assert.equal(customer.status, 200, customer.text);
    for (let i = 0; i < SUBS; i += 15) {
      const made = await Promise.all(
        Array.from({ length: Math.min(15, SUBS - i) }, (_, j) =>
          httpJson(`${recurring(servers[(i + j) % 3]!)}/subscription`, 'POST', {
            key: keys.manage_transactions,
            body: { plan_id: plan.body.id, customer_id: customer.body.id, payment_details: { token: 'tok_visa' } },
          })),
      );
      for (const m of made) assert.equal(m.status, 200, m.text);
    }
    const ledger = () => one('SELECT COUNT(*) FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id WHERE s.group_id = $1', [g]);
    assert.equal(await ledger(), SUBS);

    // The receiver stops answering the first server, and sales through it go on until one of
    // its own deliveries is held in flight: killed later, it never records that attempt, and
    // the delivery is due again when its lease lapses. (Held before the move, not during the
    // billing: on a quiet machine the billing can be over before the first server's turn.)
    const heldFromA: Receipt[] = [];
    let aHolding = false;
    receiver.hold((r) => {
      if (!r.fromA) return;
      heldFromA.push(r);
      aHolding = true;
    });
    let extraSales = 0;
    for (let i = 0; i < 20 && !aHolding; i++) {
      const s = await httpJson(`${api(a)}/transaction`, 'POST', { key: keys.manage_transactions, body: saleBody(sb.body.processor_id, { amount: 300 + i }) });
      assert.equal(s.status, 200, s.text);
      extraSales++;
      await until('a delivery of the first server, or another try', () => aHolding, (held) => held, 1500).catch(() => undefined);
    }
    assert.ok(aHolding, 'the first server has a delivery in flight');
    // A month through the first server: it answers at once (202) and bills in the background; the others' ticks join in.
    const moved = await httpJson(`${a.url}/api/v1/sandboxes/${g}/clock`, 'POST', { key: keys.manage_transactions, body: { advance: `${DAYS}d` } });
    assert.equal(moved.status, 202, moved.text);
    const total = SUBS * (DAYS + 1);
    await until('billing to be under way', ledger, (n) => n >= SUBS + 100);
    const atKill = await ledger();
    // Stopped first, so its sockets at the kill are all it will ever have sent on: a
    // request of it the receiver reads after its death is still told to be its.
    a.child.kill('SIGSTOP');
    const aPortsAtKill = portsOf(a.pid);
    await killHard(a);
    // Gone: whatever it sent has arrived by now.
    const killedAt = Date.now();
    receiver.release();
    t.diagnostic(`killed the mover with ${atKill - SUBS} of ${total - SUBS} charges of the move made, ${heldFromA.length} attempt(s) of it in flight`);
    assert.ok(atKill < total, `the kill came mid-billing (${atKill} of ${total})`);

    // The two left finish the move: every period billed exactly once.
    await until('the others to finish the billing', ledger, (n) => n >= total);
    const perSub = await q<{ id: string; n: string; periods: string; txs: string; charge_count: string }>(
      `SELECT s.id, s.charge_count,
              (SELECT COUNT(*) FROM subscription_charges c WHERE c.subscription_id = s.id) AS n,
              (SELECT COUNT(DISTINCT c.period) FROM subscription_charges c WHERE c.subscription_id = s.id) AS periods,
              (SELECT COUNT(*) FROM transactions x WHERE x.subscription_id = s.id) AS txs
       FROM subscriptions s WHERE s.group_id = $1`,
      [g],
    );
    assert.equal(perSub.length, SUBS);
    for (const s of perSub) {
      assert.deepEqual([Number(s.n), Number(s.periods), Number(s.txs), Number(s.charge_count)], [DAYS + 1, DAYS + 1, DAYS + 1, DAYS + 1], `subscription ${s.id}`);
    }

    // Every approved transaction's event reached the receiver: the dead server's leased deliveries were taken over.
    const approved = (await q<{ id: string }>("SELECT id FROM events WHERE group_id = $1 AND type = 'transaction.approved'", [g])).map((r) => r.id);
    assert.equal(approved.length, SALES + extraSales + total);
    await until('every delivery to succeed', () => one("SELECT COUNT(*) FROM webhook_deliveries WHERE group_id = $1 AND status <> 'succeeded'", [g]), (n) => n === 0);
    const byEvent = () => {
      const m = new Map<string, Receipt[]>();
      for (const r of receiver.receipts) m.set(r.event, [...(m.get(r.event) ?? []), r]);
      return m;
    };
    await until('the receiver to have every event', () => approved.filter((id) => !byEvent().has(id)).length, (n) => n === 0, 30_000);
    // Each event reached the receiver once per recorded attempt (one succeeded), plus at most
    // one attempt the dead server sent before the kill and never recorded: that delivery was
    // sent again once its lease lapsed (the documented at-least-once retry).
    const received = byEvent();
    const attempts = new Map(
      (await q<{ event_id: string; n: string; ok: string }>(
        "SELECT event_id, COUNT(*) AS n, SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS ok FROM webhook_attempts WHERE group_id = $1 GROUP BY event_id",
        [g],
      )).map((r) => [r.event_id, { n: Number(r.n), ok: Number(r.ok) }]),
    );
    let twice = 0;
    for (const id of approved) {
      const rs = received.get(id)!;
      const rec = attempts.get(id) ?? { n: 0, ok: 0 };
      assert.equal(rec.ok, 1, `event ${id}: one successful attempt on record`);
      const unrecorded = rs.length - rec.n;
      if (unrecorded !== 0) {
        assert.equal(unrecorded, 1, `event ${id}: received ${rs.length} times, ${rec.n} attempts on record`);
        const first = rs[0]!;
        assert.ok(first.fromA || aPortsAtKill.has(first.port), `event ${id}: the unrecorded attempt was the dead server's (${JSON.stringify(rs.map((r) => ({ ...r, at: r.at - killedAt })))}, ${rec.n} on record)`);
      }
      if (rs.length > 1) twice++;
    }
    for (const r of heldFromA) assert.equal(received.get(r.event)!.length, 2, `event ${r.event}, in flight at the kill, taken over after the lease and sent again`);
    t.diagnostic(`${approved.length} events delivered; ${twice} received twice (in flight at the kill)`);

    // `listen` on a survivor printed every approved event of all servers exactly once.
    await until('listen to print every event', () => listen!.events.length, (n) => n >= approved.length, 60_000);
    const heard = listen.events.map((e) => e.id);
    assert.equal(new Set(heard).size, heard.length, 'no event printed twice');
    assert.deepEqual([...heard].sort(), [...approved].sort());

    // The month moved through the dead server is the time of a sale on a survivor (its clock cache follows the database).
    const late = await httpJson(`${api(c)}/transaction`, 'POST', { key: keys.manage_transactions, body: saleBody(sb.body.processor_id, { amount: 4242 }) });
    assert.equal(late.status, 200, late.text);
    assert.ok(String(late.body.created_at) >= moved.body.now, `${late.body.created_at} is after the move (${moved.body.now})`);

    // Nothing more happens later: a few more ticks bill nothing again.
    const ticks = await one('SELECT COUNT(*) FROM transactions WHERE group_id = $1', [g]);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await one('SELECT COUNT(*) FROM transactions WHERE group_id = $1', [g]), ticks);
    assert.equal(await ledger(), total);
  } finally {
    await listen?.stop();
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await killHard(s);
    await db.end();
    await receiver.close();
  }
});
