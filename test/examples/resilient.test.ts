// Testing the unhappy paths (docs/faults.md): the client and receiver of ./resilient.ts
// against a real `payctl serve`, one sandbox per test, each with a fault switched on by
// a rule (or the Payctl-Simulate header). Every charge is made exactly once, and the
// receiver ends with the right state whatever the deliveries did.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paymentsClient, paymentsReceiver } from './resilient.js';

const PAYCTL = fileURLToPath(new URL('../../../bin/run.js', import.meta.url));
const ADMIN = 'padm_example_unhappy';
let url = '';
let server: ChildProcess;

before(async () => {
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'unhappy-')), 'payctl.db');
  server = spawn(process.execPath, [PAYCTL, 'serve', '--port', '0', '--db', db], { env: { ...process.env, PAYCTL_ADMIN_TOKEN: ADMIN } });
  url = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      const m = /serving (http:\/\/\S+)\/api\/v1/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`payctl serve exited ${code}`)));
  });
});
after(() => server.kill());

async function api(method: string, p: string, key: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${p}`, { method, headers: { authorization: key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Each sandbox's clock starts at noon UTC of today: settlement runs at the daily cutoff
 * (00:00 UTC), so a test that moves its clock an hour or two must not start just before
 * midnight, or a `transaction.settled` it never asked for arrives whatever hour it runs.
 */
const NOON = `${new Date().toISOString().slice(0, 10)}T12:00:00Z`;

/** A sandbox for one test, dropped when it ends. */
async function sandbox(t: TestContext) {
  const sb = await api('POST', '/sandboxes', ADMIN, { name: t.name, clock: NOON });
  t.after(() => api('DELETE', `/sandboxes/${sb.group_id}`, ADMIN));
  const client = paymentsClient({ url, groupId: sb.group_id, processorId: sb.processor_id, key: sb.keys.manage_transactions });
  const fault = (rule: Record<string, unknown>) => api('POST', `/sandboxes/${sb.group_id}/faults`, ADMIN, rule);
  const charges = async () => (await api('GET', `/groups/${sb.group_id}/events?types=transaction.approved,transaction.declined`, sb.keys.manage_transactions)).data.items.length as number;
  const advance = (by: string) => api('POST', `/sandboxes/${sb.group_id}/clock`, ADMIN, { advance: by });
  return { sb, client, fault, charges, advance };
}

describe('the client: every charge made once', () => {
  test('503 twice, then an answer: retried with the same key', async (t) => {
    const { client, fault, charges } = await sandbox(t);
    await fault({ operation: 'sale', action: 'error', status: 503, first: 2 });
    const r = await client.charge(1500, 'tok_visa', 'A-1');
    assert.equal(r.outcome, 'paid', JSON.stringify(r));
    assert.equal(r.attempts, 3);
    assert.equal(await charges(), 1);
  });

  test('429 with Retry-After: waited for, then retried', async (t) => {
    const { client, fault, charges } = await sandbox(t);
    await fault({ operation: 'sale', action: 'error', status: 429, retry_after: 1, count: 1 });
    const started = Date.now();
    const r = await client.charge(1500, 'tok_visa', 'A-2');
    assert.equal(r.outcome, 'paid');
    assert.equal(r.attempts, 2);
    assert.ok(Date.now() - started >= 1000, 'waited Retry-After');
    assert.equal(await charges(), 1);
  });

  test('timeout after commit: the retry with the same Idempotency-Key gets the original answer, one charge', async (t) => {
    const { client, fault, charges } = await sandbox(t);
    await fault({ operation: 'sale', action: 'timeout_after_commit', count: 1 });
    const r = await client.charge(1500, 'tok_visa', 'A-3');
    assert.equal(r.outcome, 'paid');
    assert.equal(r.attempts, 2);
    assert.equal(await charges(), 1, 'charged once, not twice');
  });

  test('latency: answered, slower', async (t) => {
    const { client, fault } = await sandbox(t);
    await fault({ operation: 'sale', action: 'latency', ms: 200, count: 1 });
    const r = await client.charge(1500, 'tok_visa', 'A-4');
    assert.equal(r.outcome, 'paid');
    assert.equal(r.attempts, 1);
  });

  test('a decline (91, issuer unavailable) is an answer, not retried', async (t) => {
    const { client, fault, charges } = await sandbox(t);
    await fault({ operation: 'sale', action: 'decline', response_code: '91', count: 1 });
    const r = await client.charge(1500, 'tok_visa', 'A-5');
    assert.equal(r.outcome, 'declined');
    if (r.outcome === 'declined') assert.equal(r.responseCode, '91');
    assert.equal(await charges(), 1);
  });

  test('an outage that outlasts the retries is reported, with nothing charged', async (t) => {
    const { client, fault, charges } = await sandbox(t);
    await fault({ operation: 'sale', action: 'error', status: 502 });
    const r = await client.charge(1500, 'tok_visa', 'A-6');
    assert.equal(r.outcome, 'failed');
    assert.equal(await charges(), 0);
  });
});

describe('the receiver: each event once, the newest state kept', () => {
  async function withReceiver(t: TestContext) {
    const s = await sandbox(t);
    let rx: Awaited<ReturnType<typeof paymentsReceiver>> | undefined;
    // The endpoint's secret comes with its creation; the receiver needs it first, so it starts on a placeholder URL's answer.
    const endpoint = await api('POST', `/groups/${s.sb.group_id}/webhook_endpoints`, s.sb.keys.manage_webhooks, { url: 'http://127.0.0.1:9/none', enabled_events: ['transaction.*'], disabled: true });
    rx = await paymentsReceiver(endpoint.secret);
    t.after(() => rx!.close());
    await api('PATCH', `/groups/${s.sb.group_id}/webhook_endpoints/${endpoint.id}`, s.sb.keys.manage_webhooks, { url: rx.url, disabled: false });
    const hookFault = (rule: Record<string, unknown>) => api('POST', `/groups/${s.sb.group_id}/webhook_endpoints/${endpoint.id}/faults`, s.sb.keys.manage_webhooks, rule);
    const attemptsOf = async () => (await api('GET', `/groups/${s.sb.group_id}/webhook_endpoints/${endpoint.id}/deliveries`, s.sb.keys.manage_webhooks)).data.items;
    /** Resolves once the endpoint's attempts (oldest first) satisfy `done`: what an attempt came to is recorded just after its answer. */
    const attemptsUntil = async (done: (a: Array<{ status: string }>) => boolean) => {
      for (;;) {
        const list = ((await attemptsOf()) as Array<{ status: string }>).reverse();
        if (done(list)) return list;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    return { ...s, rx, hookFault, attemptsOf, attemptsUntil };
  }

  test('duplicate: the second delivery of the same webhook-id changes nothing', async (t) => {
    const { client, rx, hookFault } = await withReceiver(t);
    await hookFault({ action: 'duplicate', first: 1 });
    const r = await client.charge(1500, 'tok_visa', 'B-1');
    await rx.until(() => rx.log.length >= 2);
    assert.deepEqual(rx.log.map((l) => l.outcome), ['applied', 'duplicate']);
    assert.equal(rx.payments.get(r.outcome === 'paid' ? r.id : '')?.status, 'pending');
  });

  test('reorder: the approval held back arrives after the void, and does not undo it', async (t) => {
    const { sb, client, rx, hookFault, advance, attemptsUntil } = await withReceiver(t);
    await hookFault({ action: 'reorder', window: '5m', first: 1, seed: 4 });
    const r = await client.charge(1500, 'tok_visa', 'B-2');
    assert.equal(r.outcome, 'paid');
    await attemptsUntil((a) => a[0]?.status === 'held');
    const id = r.outcome === 'paid' ? r.id : '';
    await api('POST', `/groups/${sb.group_id}/transaction/${id}/void`, sb.keys.manage_transactions);
    await rx.until(() => rx.log.length >= 1);
    assert.equal(rx.payments.get(id)?.status, 'voided', 'the void overtook the approval');
    await advance('5m');
    await rx.until(() => rx.log.length >= 2);
    assert.deepEqual(rx.log.map((l) => l.outcome), ['applied', 'stale']);
    assert.equal(rx.payments.get(id)?.status, 'voided');
  });

  test('drop and bad_signature: refused or never sent, then retried on the clock and applied once', async (t) => {
    const { client, rx, hookFault, advance, attemptsUntil } = await withReceiver(t);
    await hookFault({ action: 'bad_signature', first: 1 });
    await hookFault({ action: 'drop', first: 2 });
    const r = await client.charge(1500, 'tok_visa', 'B-3');
    await rx.until(() => rx.log.length >= 1);
    assert.equal(rx.log[0]!.outcome, 'refused');
    await attemptsUntil((a) => a.length >= 1);
    await advance('10s'); // the retry: dropped by the second rule (its first two attempts)
    await attemptsUntil((a) => a.length >= 2);
    await advance('10m'); // the next retry on the schedule: delivered
    await rx.until(() => rx.log.some((l) => l.outcome === 'applied'));
    assert.deepEqual(rx.log.map((l) => l.outcome), ['refused', 'applied']);
    assert.equal(rx.payments.get(r.outcome === 'paid' ? r.id : '')?.status, 'pending');
  });

  test('delay: the event arrives when the group clock has moved past the hold', async (t) => {
    const { client, rx, hookFault, advance, attemptsOf, attemptsUntil } = await withReceiver(t);
    await hookFault({ action: 'delay', delay: '2h', count: 1 });
    await client.charge(1500, 'tok_visa', 'B-4');
    await attemptsUntil((a) => a[0]?.status === 'held');
    await advance('1h');
    assert.equal(rx.log.length, 0, `still held: ${JSON.stringify(await attemptsOf())}`);
    await advance('1h');
    await rx.until(() => rx.log.length >= 1);
    assert.deepEqual(rx.log.map((l) => l.outcome), ['applied']);
  });
});
