// Fault injection on the API over the real server: rules per sandbox (who may set them,
// what a bad rule is told), each action against real requests (error before anything is
// written, timeout after commit with the idempotent retry, declines recorded like any
// decline, latency, a processor-unavailable window on the group clock), the seed
// reproducing a sequence exactly, the one-off Payctl-Simulate header (sandboxes only),
// isolation between sandboxes, and the marks (Payctl-Fault header, request log).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody, US_BILLING } from '../helpers/bodies.js';
import { fires, uniform } from '../../src/domain/faults.js';
import { formatEntry } from '../../src/dev/log-tail.js';
import type { AccessEntry } from '../../src/http/access-log.js';

let s: TestServer;
const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-faults-')), 'access.log');
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, accessLog: logFile });
});
after(() => s.close());

const faultsPath = (sb: { group_id: string }) => `/api/v1/sandboxes/${sb.group_id}/faults`;
const addRule = async (sb: SandboxReply, rule: Record<string, unknown>, key = ADMIN) => {
  const r = await s.call('POST', faultsPath(sb), { key, body: rule });
  assert.equal(r.status, 201, r.text);
  return r.body;
};
const sale = (sb: SandboxReply, opts: Parameters<typeof saleBody>[1] = {}, headers: Record<string, string> = {}) =>
  s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, opts), headers });
const count = async (table: string, groupId: string) => (await s.p.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE group_id = ?`, [groupId]))!.n;

/** A POST whose connection may be closed without an answer: resolves 'dropped' then. */
function rawPost(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string } | 'dropped'> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', () => resolve('dropped'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.message === 'socket hang up' ? resolve('dropped') : reject(err)));
    req.end(JSON.stringify(body));
  });
}

describe('fault rules: who may set them, and what a bad rule is told', () => {
  test('the admin token and the group\'s own manage_transactions key add, list and remove; other keys are refused', async () => {
    const a = await newSandbox(s);
    const b = await newSandbox(s);
    const byAdmin = await addRule(a, { operation: 'sale', action: 'error', status: 503, first: 1 });
    assert.equal(byAdmin.group_id, a.group_id);
    assert.equal(typeof byAdmin.seed, 'number', 'a generated seed is returned');
    assert.equal(byAdmin.calls, 0);
    const byKey = await addRule(a, { operation: 'refund', action: 'latency', ms: 5, seed: 7 }, a.keys.manage_transactions);
    assert.equal(byKey.seed, 7);

    const other = await s.call('POST', faultsPath(a), { key: b.keys.manage_transactions, body: { operation: 'sale', action: 'timeout_after_commit' } });
    assert.equal(other.status, 403, 'another group\'s key');
    const viewer = await s.call('POST', faultsPath(a), { key: a.keys.view_transactions, body: { operation: 'sale', action: 'timeout_after_commit' } });
    assert.equal(viewer.status, 403, 'a key without manage_transactions');
    assert.equal((await s.call('GET', faultsPath(a), { key: b.keys.manage_transactions })).status, 403);

    const list = await s.call('GET', faultsPath(a), { key: a.keys.manage_transactions });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((r: { id: string }) => r.id), [byAdmin.id, byKey.id]);
    assert.equal((await s.call('GET', faultsPath(b), { key: ADMIN })).body.data.length, 0, 'the other sandbox has none');

    assert.equal((await s.call('DELETE', `${faultsPath(a)}/${byKey.id}`, { key: b.keys.manage_transactions })).status, 403);
    assert.equal((await s.call('DELETE', `${faultsPath(b)}/${byKey.id}`, { key: ADMIN })).status, 404, 'a rule of another group is not found');
    const removed = await s.call('DELETE', `${faultsPath(a)}/${byKey.id}`, { key: a.keys.manage_transactions });
    assert.deepEqual(removed.body, { id: byKey.id, deleted: true });
    assert.equal((await s.call('DELETE', `${faultsPath(a)}/${byKey.id}`, { key: ADMIN })).status, 404);
    assert.equal((await s.call('GET', '/api/v1/sandboxes/00000000-0000-0000-0000-000000000000/faults', { key: ADMIN })).status, 404);
  });

  test('a bad rule is a 400 naming the field and the rule; nothing is stored', async () => {
    const sb = await newSandbox(s);
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ action: 'error', status: 503 }, 'operation', /operation, or a path/],
      [{ operation: 'sale', action: 'error' }, 'status', /required with action error/],
      [{ operation: 'sale', action: 'error', status: 418 }, 'status', /500, 502, 503, 504, 429/],
      [{ operation: 'sale', action: 'error', status: 429 }, 'retry_after', /Retry-After/],
      [{ operation: 'sale', action: 'latency' }, 'ms', /required/],
      [{ operation: 'sale', action: 'latency', ms: 50, ms_max: 10 }, 'ms_max', /at least ms/],
      [{ operation: 'sale', action: 'latency', ms: 10, status: 503 }, 'status', /not a field of action latency/],
      [{ operation: 'sale', action: 'decline' }, 'response_code', /required/],
      [{ operation: 'sale', action: 'decline', response_code: '00' }, 'response_code', /must be one of .*91.*96/],
      [{ operation: 'refund', action: 'decline', response_code: '05' }, 'operation', /sale, auth, capture, pay/],
      [{ operation: 'sale', action: 'processor_unavailable' }, 'until', /required/],
      [{ operation: 'sale', action: 'timeout_after_commit', rate: 0.5, first: 2 }, 'first', /at most one of rate, first or every/],
      [{ operation: 'sale', action: 'timeout_after_commit', rate: 1.5 }, 'rate', /0 to 1/],
      [{ operation: 'sale', action: 'timeout_after_commit', seed: -1 }, 'seed', /at least 0/],
      [{ operation: 'sale', action: 'timeout_after_commit', from: '2027-01-02T00:00:00Z', until: '2027-01-01T00:00:00Z' }, 'until', /after from/],
      [{ operation: 'sale', action: 'timeout_after_commit', until: 'tomorrow' }, 'until', /RFC 3339/],
      [{ operation: 'sale', method: 'POST', action: 'timeout_after_commit' }, 'method', /not both/],
      [{ path: '/elsewhere', action: 'timeout_after_commit' }, 'path', /\/api\/v1\//],
      [{ operation: 'sale', action: 'explode' }, 'action', /latency, error/],
      [{ operation: 'subscription_charge', action: 'error', status: 503 }, 'action', /decline.*processor_unavailable with operation subscription_charge/],
      [{ operation: 'subscription_charge', action: 'timeout_after_commit' }, 'action', /billing engine answers no request/],
      [{ operation: 'sale', action: 'timeout_after_commit', colour: 'red' }, 'colour', /./],
    ];
    for (const [body, field, message] of cases) {
      const r = await s.call('POST', faultsPath(sb), { key: ADMIN, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.type, 'validation_error');
      const problem = r.body.error.fields.find((f: { path: string }) => f.path === field);
      assert.ok(problem, `${JSON.stringify(body)} names ${field}: ${r.text}`);
      assert.match(problem.message, message, JSON.stringify(body));
    }
    assert.equal(await count('fault_rules', sb.group_id), 0);
  });
});

describe('each fault against real requests', () => {
  test('error: 503 for the first two sales, before anything is written; then normal answers', async () => {
    const sb = await newSandbox(s);
    const rule = await addRule(sb, { operation: 'sale', action: 'error', status: 503, first: 2 });
    for (const call of [1, 2]) {
      const r = await sale(sb, {}, { 'idempotency-key': `err-${call}` });
      assert.equal(r.status, 503);
      assert.equal(r.body.error.type, 'unavailable');
      assert.match(r.body.error.message, /injected fault/);
      assert.equal(r.headers.get('payctl-fault'), `error; status=503; rule=${rule.id}; call=${call}`);
    }
    assert.equal(await count('transactions', sb.group_id), 0, 'no transaction');
    assert.equal(await count('events', sb.group_id), 0, 'no event');
    assert.equal(await count('idempotency_keys', sb.group_id), 0, 'no idempotency record: a retry does the work');
    const retry = await sale(sb, {}, { 'idempotency-key': 'err-1' });
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('payctl-fault'), null, 'the third call gets none');
    assert.equal(await count('transactions', sb.group_id), 1);
    const listed = (await s.call('GET', faultsPath(sb), { key: ADMIN })).body.data[0];
    assert.equal(listed.calls, 3);
    assert.equal(listed.fired, 2);
  });

  test('error 429 sends Retry-After and the rate_limited body; count stops the rule', async () => {
    const sb = await newSandbox(s);
    await addRule(sb, { operation: 'sale', action: 'error', status: 429, retry_after: 7, count: 1 });
    const r = await sale(sb);
    assert.equal(r.status, 429);
    assert.equal(r.body.error.type, 'rate_limited');
    assert.equal(r.headers.get('retry-after'), '7');
    assert.equal((await sale(sb)).status, 200, 'count 1: used up');
  });

  test('timeout_after_commit: the sale commits, the connection closes unanswered, the retry with the same Idempotency-Key gets the original answer', async () => {
    const sb = await newSandbox(s);
    await addRule(sb, { operation: 'sale', action: 'timeout_after_commit', count: 1 });
    const headers = { authorization: sb.keys.manage_transactions, 'idempotency-key': 'order-1001' };
    const body = saleBody(sb.processor_id, { orderId: 'order-1001' });
    const first = await rawPost(`${s.url}/api/v1/groups/${sb.group_id}/transaction`, headers, body);
    assert.equal(first, 'dropped');
    const rows = await s.p.db.all<{ id: string; status: string }>('SELECT id, status FROM transactions WHERE group_id = ?', [sb.group_id]);
    assert.equal(rows.length, 1, 'the work was committed');
    const retry = await rawPost(`${s.url}/api/v1/groups/${sb.group_id}/transaction`, headers, body);
    assert.notEqual(retry, 'dropped');
    if (retry === 'dropped') return;
    assert.equal(retry.status, 200);
    assert.equal(JSON.parse(retry.body).id, rows[0]!.id, 'the original answer');
    assert.equal(await count('transactions', sb.group_id), 1, 'charged once');
    const events = await s.p.db.all<{ type: string }>('SELECT type FROM events WHERE group_id = ?', [sb.group_id]);
    assert.equal(events.filter((e) => e.type === 'transaction.approved').length, 1);
  });

  test('decline with any documented code (and 91, 96): a declined transaction with that code, with an approving card', async () => {
    const sb = await newSandbox(s);
    for (const code of ['05', '51', 'N7', 'N8', '91', '96']) {
      const rule = await addRule(sb, { operation: 'sale', action: 'decline', response_code: code, count: 1 });
      const r = await sale(sb, { token: 'tok_visa' });
      const t = r.status === 200 ? r.body : (await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${r.body.error.transaction_id}`, { key: sb.keys.manage_transactions })).body;
      assert.equal(t.status, 'declined', r.text);
      assert.equal(t.response_code, code);
      assert.equal(r.headers.get('payctl-fault'), `decline; response_code=${code}; rule=${rule.id}; call=1`);
    }
    const ok = await sale(sb, { token: 'tok_visa' });
    assert.equal(ok.body.status, 'pending', 'every rule used up');
    const recorded = await s.p.db.all<{ response_code: string }>("SELECT response_code FROM transactions WHERE group_id = ? AND status = 'declined'", [sb.group_id]);
    assert.equal(recorded.length, 6);
  });

  test('auth declines too; AVS and CVV mismatches are recorded with their codes', async () => {
    const sb = await newSandbox(s);
    await addRule(sb, { operation: 'auth', action: 'decline', response_code: '51', count: 1 });
    const auth = await sale(sb, { type: 'auth' });
    const authT = auth.status === 200 ? auth.body : (await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${auth.body.error.transaction_id}`, { key: sb.keys.manage_transactions })).body;
    assert.equal(authT.status, 'declined');
    assert.equal(authT.response_code, '51');
    await addRule(sb, { operation: 'sale', action: 'avs_mismatch', first: 1 });
    await addRule(sb, { operation: 'sale', action: 'cvv_mismatch', first: 2 });
    await sale(sb);
    await sale(sb);
    const rows = await s.p.db.all<{ response_code: string; avs: string; cvv: string }>(
      "SELECT response_code, avs, cvv FROM transactions WHERE group_id = ? AND transaction_type = 'sale' ORDER BY created_at, id",
      [sb.group_id],
    );
    assert.deepEqual(rows.map((r) => [r.response_code, r.avs, r.cvv]), [['N7', 'N', 'M'], ['N8', 'Y', 'N']]);
  });

  test('a capture declined by a fault is refused: the auth stays authorized with the code recorded and answered; a later capture succeeds', async () => {
    const sb = await newSandbox(s);
    const auth = await sale(sb, { type: 'auth' });
    assert.equal(auth.body.status, 'authorized', auth.text);
    const capturePath = `/api/v1/groups/${sb.group_id}/transaction/${auth.body.id}/capture`;
    const capture = () => s.call('POST', capturePath, { key: sb.keys.manage_transactions, body: { amount: auth.body.amounts.authorized_amount } });
    const rule = await addRule(sb, { operation: 'capture', action: 'decline', response_code: '91', count: 1 });
    const refused = await capture();
    assert.equal(refused.status, 200, refused.text);
    assert.equal(refused.headers.get('payctl-fault'), `decline; response_code=91; rule=${rule.id}; call=1`);
    assert.equal(refused.body.status, 'authorized');
    assert.equal(refused.body.response_code, '91');
    assert.equal(refused.body.amounts.captured_amount, 0);
    const row = await s.p.db.get<{ status: string; response_code: string; captured_amount: number }>(
      'SELECT status, response_code, captured_amount FROM transactions WHERE id = ?',
      [auth.body.id],
    );
    assert.deepEqual({ ...row }, { status: 'authorized', response_code: '91', captured_amount: 0 });
    const events = await s.p.db.all<{ type: string }>('SELECT type FROM events WHERE group_id = ?', [sb.group_id]);
    assert.equal(events.filter((e) => e.type === 'transaction.captured').length, 0, 'nothing captured');

    await addRule(sb, { operation: 'capture', action: 'cvv_mismatch', count: 1 });
    const cvv = await capture();
    assert.equal(cvv.body.status, 'authorized');
    assert.equal(cvv.body.response_code, 'N8');

    const ok = await capture();
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.status, 'captured', 'the rules are used up: the auth is captured');
    assert.equal(ok.body.amounts.captured_amount, auth.body.amounts.authorized_amount);
  });

  test('pay: the public path takes the faults of the link\'s group, as the group path does; another sandbox\'s link none', async () => {
    const [sb, other] = [await newSandbox(s), await newSandbox(s)];
    const newLink = async (box: SandboxReply) => {
      const r = await s.call('POST', `/api/v1/groups/${box.group_id}/payment-links`, { key: box.keys.manage_transactions, body: { amount: 2500, description: 'Ticket' } });
      assert.equal(r.status, 200, r.text);
      return r.body.id as string;
    };
    const pay = async (linkId: string, path: string) => {
      const session = await s.call('GET', `/api/v1/payment-links/${linkId}`);
      assert.equal(session.status, 200, session.text);
      return s.call('POST', path, { headers: { authorization: session.body.session_token }, body: { token: 'tok_visa', billing_address: US_BILLING } });
    };
    const link = await newLink(sb);
    const rule = await addRule(sb, { operation: 'pay', action: 'decline', response_code: '51', count: 2 });
    const publicPay = await pay(link, `/api/v1/payment-links/${link}/pay`);
    assert.equal(publicPay.status, 400, publicPay.text);
    assert.equal(publicPay.body.error.code, 'payment_declined');
    assert.equal(publicPay.body.error.response_code, '51');
    assert.equal(publicPay.headers.get('payctl-fault'), `decline; response_code=51; rule=${rule.id}; call=1`);
    const groupPay = await pay(link, `/api/v1/groups/${sb.group_id}/payment-links/${link}/pay`);
    assert.equal(groupPay.body.error?.response_code, '51', groupPay.text);
    assert.equal(groupPay.headers.get('payctl-fault'), `decline; response_code=51; rule=${rule.id}; call=2`, 'one rule counts both paths');

    const otherLink = await newLink(other);
    await addRule(sb, { operation: 'pay', action: 'error', status: 503, count: 1 });
    const untouched = await pay(otherLink, `/api/v1/payment-links/${otherLink}/pay`);
    assert.equal(untouched.status, 200, untouched.text);
    assert.equal(untouched.headers.get('payctl-fault'), null, 'never another sandbox');

    const refused = await pay(link, `/api/v1/payment-links/${link}/pay`);
    assert.equal(refused.status, 503, refused.text);
    assert.match(refused.headers.get('payctl-fault') ?? '', /^error; status=503/);
    const paid = await pay(link, `/api/v1/payment-links/${link}/pay`);
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.headers.get('payctl-fault'), null, 'every rule used up');
    const rows = await s.p.db.all<{ status: string; response_code: string }>('SELECT status, response_code FROM transactions WHERE payment_link_id = ? ORDER BY created_at, id', [link]);
    assert.deepEqual(rows.map((r) => r.status).sort(), ['declined', 'declined', 'pending'], 'the 503 wrote nothing');
  });

  test('processor_unavailable: declined with 91 inside the window of the group clock, approved after it', async () => {
    const sb = await newSandbox(s);
    const until = new Date(Date.parse(sb.clock) + 3_600_000).toISOString();
    await addRule(sb, { operation: 'sale', action: 'processor_unavailable', until });
    const during = await sale(sb);
    const t = during.status === 200 ? during.body : (await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${during.body.error.transaction_id}`, { key: sb.keys.manage_transactions })).body;
    assert.equal(t.status, 'declined');
    assert.equal(t.response_code, '91');
    const moved = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { advance: '2h' } });
    assert.equal(moved.status, 200, moved.text);
    const afterWindow = await sale(sb);
    assert.equal(afterWindow.body.status, 'pending');
    assert.equal(afterWindow.headers.get('payctl-fault'), null);
  });

  test('subscription_charge: the billing engine\'s renewal is declined with the rule\'s code, the retry too while it fires, then it recovers', async () => {
    const sb = await newSandbox(s, { demo: true, clock: '2030-01-01T00:00:00Z' });
    const base = `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/recurring`;
    const key = sb.keys.manage_transactions;
    const plan = await s.call('POST', `${base}/plans`, { key, body: { name: 'Gold', amount: 1500, billing_cycle: 'monthly', duration: 0 } });
    assert.equal(plan.status, 200, plan.text);
    const sub = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: sb.customer_id, card_id: sb.card_id } });
    assert.equal(sub.status, 200, sub.text);
    // The demo's own subscriptions would take the rule's first calls: cancelled, only ours bills.
    for (const id of sb.subscription_ids as string[]) assert.equal((await s.call('POST', `${base}/subscription/${id}/cancel`, { key, body: {} })).status, 200);
    const rule = await addRule(sb, { operation: 'subscription_charge', action: 'decline', response_code: '51', first: 2, seed: 1 });
    const charges = async () =>
      (await s.p.db.all<{ status: string; response_code: string }>('SELECT status, response_code FROM transactions WHERE subscription_id = ? ORDER BY created_at, id', [sub.body.id])).map((t) => `${t.status} ${t.response_code}`);
    const at = (hours: number) => new Date(Date.parse(sub.body.next_bill_date) + hours * 3_600_000).toISOString();
    const move = async (set: string) => assert.equal((await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { set } })).status, 200);
    const initial = await charges();
    const since = async () => (await charges()).slice(initial.length);
    await move(at(1));
    assert.deepEqual(await since(), ['declined 51'], 'the renewal (an approving card) is declined with the rule\'s code');
    assert.equal((await s.call('GET', `${base}/subscription/${sub.body.id}`, { key })).body.retry_count, 1);
    await move(at(25));
    assert.deepEqual(await since(), ['declined 51', 'declined 51'], 'the retry (a day later) is a subscription charge too');
    await move(at(24 * 8));
    assert.deepEqual((await since()).slice(0, 3), ['declined 51', 'declined 51', 'pending 00'], 'first: 2 used up, the next retry goes through');
    const listed = (await s.call('GET', faultsPath(sb), { key: ADMIN })).body.data.find((r: { id: string }) => r.id === rule.id);
    assert.deepEqual([listed.calls, listed.fired], [3, 2], 'calls and fired count the billing engine\'s charges');
    const failed = await s.call('GET', `/api/v1/groups/${sb.group_id}/events?types=subscription.payment_failed`, { key: sb.keys.manage_webhooks });
    assert.equal(failed.body.data.items.length, 2, failed.text);
  });

  test('latency by method and path pattern: the answer is normal and marked with the drawn delay', async () => {
    const sb = await newSandbox(s);
    const created = (await sale(sb)).body;
    const rule = await addRule(sb, { method: 'GET', path: '/api/v1/groups/*/transaction/*', action: 'latency', ms: 10, ms_max: 30, seed: 5 });
    const r = await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${created.id}`, { key: sb.keys.manage_transactions });
    assert.equal(r.status, 200);
    assert.equal(r.body.id, created.id);
    const ms = 10 + Math.floor(uniform(5, 1, 1) * 21);
    assert.equal(r.headers.get('payctl-fault'), `latency; ms=${ms}; rule=${rule.id}; call=1`);
    assert.equal((await sale(sb)).headers.get('payctl-fault'), null, 'a POST of another path is not matched');
  });
});

describe('determinism, the one-off header, isolation and the marks', () => {
  test('the same seed and the same calls give the same faults; the sequence is the domain rule\'s', async () => {
    const run = async (seed: number) => {
      const sb = await newSandbox(s);
      await addRule(sb, { operation: 'sale', action: 'error', status: 502, rate: 0.4, seed });
      const seen: boolean[] = [];
      for (let i = 0; i < 20; i++) seen.push((await sale(sb)).status === 502);
      return seen;
    };
    const one = await run(1234);
    const two = await run(1234);
    assert.deepEqual(two, one);
    assert.deepEqual(one, Array.from({ length: 20 }, (_, i) => fires({ rate: 0.4, seed: 1234 }, i + 1)));
    assert.ok(one.includes(true) && one.includes(false), 'a rate of 0.4 over 20 calls fires on some, not all');
    assert.notDeepEqual(await run(99), one, 'another seed, another sequence');
  });

  test('every Nth call', async () => {
    const sb = await newSandbox(s);
    await addRule(sb, { operation: 'sale', action: 'error', status: 500, every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await sale(sb)).status);
    assert.deepEqual(statuses, [200, 200, 500, 200, 200, 500]);
  });

  test('Payctl-Simulate: one fault for one call on a sandbox; refused on a group that is not one', async () => {
    const sb = await newSandbox(s);
    const err = await sale(sb, {}, { 'payctl-simulate': 'error=503' });
    assert.equal(err.status, 503);
    assert.equal(err.headers.get('payctl-fault'), 'error; status=503; rule=simulate');
    const slow = await sale(sb, {}, { 'payctl-simulate': 'latency=20ms' });
    assert.equal(slow.status, 200);
    assert.equal(slow.headers.get('payctl-fault'), 'latency; ms=20; rule=simulate');
    const declined = await sale(sb, {}, { 'payctl-simulate': 'decline=96' });
    const t = declined.status === 200 ? declined.body : (await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${declined.body.error.transaction_id}`, { key: sb.keys.manage_transactions })).body;
    assert.equal(t.response_code, '96');
    const dropped = await rawPost(`${s.url}/api/v1/groups/${sb.group_id}/transaction`, {
      authorization: sb.keys.manage_transactions, 'payctl-simulate': 'timeout_after_commit', 'idempotency-key': 'sim-1',
    }, saleBody(sb.processor_id));
    assert.equal(dropped, 'dropped');
    const bad = await sale(sb, {}, { 'payctl-simulate': 'error=418' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields[0].path, 'Payctl-Simulate');

    const demo = s.demo as unknown as { group_id: string; processor_id: string; keys: Record<string, string> };
    const refused = await s.call('POST', `/api/v1/groups/${demo.group_id}/transaction`, {
      key: demo.keys.manage_transactions, body: saleBody(demo.processor_id), headers: { 'payctl-simulate': 'error=503' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.fields[0].message, /only on sandboxes/);
  });

  test('a rule never touches another sandbox, and removing it takes effect at once', async () => {
    const a = await newSandbox(s);
    const b = await newSandbox(s);
    const rule = await addRule(a, { operation: 'sale', action: 'error', status: 504 });
    assert.equal((await sale(a)).status, 504);
    assert.equal((await sale(b)).status, 200);
    await s.call('DELETE', `${faultsPath(a)}/${rule.id}`, { key: ADMIN });
    assert.equal((await sale(a)).status, 200);
  });

  test('the request log names the fault', async () => {
    const sb = await newSandbox(s);
    const rule = await addRule(sb, { operation: 'sale', action: 'error', status: 503, first: 1 });
    const r = await sale(sb);
    const requestId = r.headers.get('request-id');
    let entry: { fault?: string; status: number } | undefined;
    for (let i = 0; i < 50 && !entry; i++) {
      entry = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.request_id === requestId);
      if (!entry) await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(entry);
    assert.equal(entry.status, 503);
    assert.equal(entry.fault, `error; status=503; rule=${rule.id}; call=1`);
    // payctl logs tail prints it on the request's line.
    assert.match(formatEntry(entry as AccessEntry), new RegExp(`503 .* unavailable  fault: error; status=503; rule=${rule.id}; call=1$`));
  });
});
