// Races: many requests for one thing at once. Compare-and-set state changes let exactly
// one win (captures over HTTP and from the CLI in another process, pays of one payment
// link), one Idempotency-Key executes once, and a CLI writing the same database file
// as a loaded server never surfaces SQLITE_BUSY.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';
import { runLoad } from '../helpers/serve-process.js';
import { saleBody, US_BILLING } from '../helpers/bodies.js';
import { report } from '../helpers/report.js';

let s: TestServer;
before(async () => {
  // Pay is rate limited per address; every request here comes from 127.0.0.1.
  s = await startTestServer({ settings: { payRateLimit: { points: 100_000, durationMs: 60_000 } } });
});
after(() => s.close());

const txnPath = () => `/api/v1/groups/${s.demo.group_id}/transaction`;

async function newAuth(amount = 5000): Promise<string> {
  const r = await s.call('POST', txnPath(), { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { type: 'auth', amount }) });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.status, 'authorized');
  return r.body.id as string;
}

const captureOverHttp = (id: string, amount: number) =>
  s.call('POST', `${txnPath()}/${id}/capture`, { key: s.demo.keys.manage_transactions, body: { amount } });

async function storedTxn(id: string) {
  return (await s.p.db.get<{ status: string; captured_amount: number; authorized_amount: number }>(
    'SELECT status, captured_amount, authorized_amount FROM transactions WHERE id = ?',
    [id],
  ))!;
}

test('50 concurrent HTTP captures of one auth: exactly one succeeds, captured = authorized', async () => {
  const id = await newAuth(5000);
  const replies = await Promise.all(Array.from({ length: 50 }, () => captureOverHttp(id, 5000)));
  const wins = replies.filter((r) => r.status === 200);
  assert.equal(wins.length, 1);
  for (const r of replies.filter((x) => x.status !== 200)) {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.type, 'invalid_request');
  }
  const row = await storedTxn(id);
  assert.equal(row.status, 'captured');
  assert.equal(row.captured_amount, 5000);
  assert.ok(row.captured_amount <= row.authorized_amount);
  report('race-capture-http', { attempts: 50, succeeded: wins.length, refused_400: replies.length - wins.length });
});

test('50 concurrent partial captures (variant A) of one auth: one wins, captured <= authorized', async () => {
  const id = await newAuth(5000);
  const auth = (await s.call('GET', `${txnPath()}/${id}`, { key: s.demo.keys.manage_transactions })).body;
  const bodyFor = (captured: number) => ({
    ...saleBody(s.demo.processor_id, { type: 'auth', amount: 5000 }),
    amounts: { requested_amount: 5000, captured_amount: captured },
    payment_details: { token: 'tok_visa' },
  });
  assert.equal(auth.status, 'authorized');
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      s.call('POST', `${txnPath()}/${id}/capture`, { key: s.demo.keys.manage_transactions, body: bodyFor(1000 + i * 50) }),
    ),
  );
  const wins = replies.filter((r) => r.status === 200);
  assert.equal(wins.length, 1, replies.map((r) => r.status).join(','));
  const row = await storedTxn(id);
  assert.equal(row.captured_amount, wins[0]!.body.amounts.captured_amount);
  assert.ok(row.captured_amount <= row.authorized_amount);
  assert.equal(row.status, 'partially_captured');
});

/** Resolves once the process has the database file open (it is about to run its command). */
async function dbOpenedBy(pid: number, dbPath: string): Promise<void> {
  for (;;) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return; // already exited
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === dbPath) return;
      } catch {
        // fd closed meanwhile
      }
    }
    await new Promise((r) => setTimeout(r, 5)); // polling a condition (leave the CPU to the CLIs)
  }
}

test('captures from the HTTP API and the CLI (another process) at once: exactly one succeeds', async () => {
  const id = await newAuth(7000);
  const dbPath = s.p.db.location;
  const { spawn } = await import('node:child_process');
  const { packageRoot } = await import('../../src/lib/paths.js');
  const path = await import('node:path');
  const clis = Array.from({ length: 5 }, () => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'capture', id, '--group', s.demo.group_id, '--json'], {
      env: { ...process.env, NO_COLOR: '1', PAYCTL_DB: dbPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const done = new Promise<{ code: number; out: string }>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, out })));
    return { child, done };
  });
  // Fire the HTTP captures when the first CLI has the database open, so both really overlap.
  await Promise.race(clis.map((c) => dbOpenedBy(c.child.pid!, dbPath)));
  const http = await Promise.all(Array.from({ length: 45 }, () => captureOverHttp(id, 7000)));
  const cli = await Promise.all(clis.map((c) => c.done));
  const httpWins = http.filter((r) => r.status === 200).length;
  const cliWins = cli.filter((r) => r.code === 0).length;
  assert.equal(httpWins + cliWins, 1, `http ${httpWins}, cli ${cliWins}`);
  for (const r of http) assert.ok(r.status === 200 || (r.status === 400 && r.body.error.type === 'invalid_request'), r.text);
  for (const r of cli) {
    assert.doesNotMatch(r.out, /SQLITE_BUSY|database is locked/i);
    if (r.code !== 0) assert.match(r.out, /invalid_request/);
  }
  const row = await storedTxn(id);
  assert.equal(row.status, 'captured');
  assert.equal(row.captured_amount, 7000);
  report('race-capture-http-cli', { http: 45, cli: 5, http_won: httpWins, cli_won: cliWins });
});

test('20 concurrent sales with one Idempotency-Key: one executes, the rest replay or get 409, one row', async () => {
  const key = `race-sale-${randomUUID()}`;
  const body = saleBody(s.demo.processor_id, { orderId: key, amount: 4321 });
  const replies = await Promise.all(
    Array.from({ length: 20 }, () => s.call('POST', txnPath(), { key: s.demo.keys.manage_transactions, body, headers: { 'idempotency-key': key } })),
  );
  const fresh = replies.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true');
  const replayed = replies.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === 'true');
  const conflicts = replies.filter((r) => r.status === 409);
  assert.equal(fresh.length, 1);
  assert.equal(fresh.length + replayed.length + conflicts.length, 20, replies.map((r) => r.status).join(','));
  for (const r of replayed) assert.deepEqual(r.body, fresh[0]!.body);
  for (const r of conflicts) assert.equal(r.body.error.type, 'idempotency_error');
  const rows = await s.p.db.all('SELECT id FROM transactions WHERE order_id = ?', [key]);
  assert.equal(rows.length, 1);
  const records = await s.p.db.all('SELECT key FROM idempotency_keys WHERE key = ?', [key]);
  assert.equal(records.length, 1);
  report('race-idempotency', { requests: 20, executed: 1, replayed: replayed.length, conflict_409: conflicts.length, rows: 1 });
});

test('concurrent pays of one payment link (20 sessions, both pay paths): one charge', async () => {
  const created = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/payment-links`, {
    key: s.demo.keys.manage_transactions,
    body: { amount: 2599, description: 'race test' },
  });
  assert.equal(created.status, 200, created.text);
  const linkId = created.body.id as string;
  const sessions: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await s.call('GET', `/api/v1/payment-links/${linkId}`);
    assert.equal(r.status, 200);
    sessions.push(r.body.session_token);
  }
  const replies = await Promise.all(
    sessions.map((session, i) =>
      s.call('POST', i % 2 ? `/api/v1/payment-links/${linkId}/pay` : `/api/v1/groups/${s.demo.group_id}/payment-links/${linkId}/pay`, {
        key: session,
        body: { token: 'tok_visa', billing_address: US_BILLING },
      }),
    ),
  );
  const wins = replies.filter((r) => r.status === 200);
  assert.equal(wins.length, 1, replies.map((r) => `${r.status}`).join(','));
  for (const r of replies.filter((x) => x.status !== 200)) {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.type, 'invalid_request');
  }
  const charges = await s.p.db.all('SELECT id FROM transactions WHERE payment_link_id = ?', [linkId]);
  assert.equal(charges.length, 1);
  report('race-payment-link', { pays: 20, charged: charges.length });
});

test('a CLI writing the database while the server is under load: every write commits, no SQLITE_BUSY', async () => {
  let stop = false;
  const load = runLoad<void>({
    concurrency: 8,
    stop: () => stop,
    send: async () => {
      const r = await s.call('POST', txnPath(), { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { amount: 777 }) });
      return { status: r.status };
    },
  });
  const cliIds: string[] = [];
  const CLI_WRITES = 5;
  try {
    for (let i = 0; i < CLI_WRITES; i++) {
      const r = await runCli(['customer', 'create', '--group', s.demo.group_id, '--first-name', `Cli${i}`, '--json'], { db: s.p.db.location });
      assert.doesNotMatch(r.stdout + r.stderr, /SQLITE_BUSY|database is locked/i);
      assert.equal(r.code, 0, r.stderr + r.stdout);
      cliIds.push(JSON.parse(r.stdout).id);
    }
  } finally {
    stop = true;
  }
  const result = await load;
  assert.equal(result.networkErrors, 0);
  const statuses = Object.fromEntries(result.statuses);
  assert.deepEqual(Object.keys(statuses), ['200'], JSON.stringify(statuses));
  for (const id of cliIds) assert.ok(await s.p.db.get('SELECT id FROM customers WHERE id = ?', [id]), `customer ${id} committed`);
  report('race-cli-under-load', { cli_writes: CLI_WRITES, cli_committed: cliIds.length, http_sales_during: statuses['200'], http_errors: 0 });
});
