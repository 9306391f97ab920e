// Strict time over the real server (docs/decisions.md#time): every instant and
// date a request takes is read by one parser — impossible dates and hours refused with a
// 400 naming the field, years 1970–9999 only (also when an offset would carry a time out
// of them), one fixed-width UTC form stored — and a clock moves at most 10 years per
// request, never backwards. Each case here was a 500, a roll-over or a wrong answer before.
import '../helpers/env.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const fields = (r: { body: { error?: { fields?: Array<{ path: string }> } } }) => (r.body.error?.fields ?? []).map((f) => f.path);
const moveClock = (sb: SandboxReply, body: unknown) => s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body });
const clockNow = async (sb: SandboxReply) => (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body.now as string;
/** The group's own offset: what a move changes (its time runs on with real time). */
const clockOffset = async (sb: SandboxReply) => (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body.offset_ms as number;

describe('POST /api/v1/sandboxes/{id}/clock: bounded moves', () => {
  test('advance by 100000000d or 99999999999999999999d is a 400 naming advance (was a 500); the clock stays', async () => {
    const sb = await newSandbox(s);
    const before = await clockOffset(sb);
    for (const advance of ['100000000d', '99999999999999999999d', '3660d', '10000000000000000000000000000000000000d']) {
      const r = await moveClock(sb, { advance });
      assert.equal(r.status, 400, `${advance}: ${r.text}`);
      assert.deepEqual(fields(r), ['advance'], advance);
    }
    assert.match((await moveClock(sb, { advance: '3660d' })).body.error.fields[0].message, /at most 10 years/);
    assert.equal(await clockOffset(sb), before);
    // Ten years in one request is allowed.
    const ok = await moveClock(sb, { advance: '3650d' });
    assert.ok(ok.status === 200 || ok.status === 202, ok.text);
  });

  test('set refuses impossible dates and hours, years past 9999, more than 10 years, and backwards', async () => {
    const sb = await newSandbox(s, { clock: '2026-01-01T00:00:00Z' });
    const before = await clockOffset(sb);
    for (const set of ['2027-02-30', '2027-02-31T00:00:00Z', '2027-01-01T24:00:00Z', '2026-06-01T12:60:00Z', '10000-01-01T00:00:00Z', '2037-01-02', '2025-12-31T23:59:59Z']) {
      const r = await moveClock(sb, { set });
      assert.equal(r.status, 400, `${set}: ${r.text}`);
      assert.deepEqual(fields(r), ['set'], set);
    }
    assert.equal(await clockOffset(sb), before);
    const ok = await moveClock(sb, { set: '2028-02-29' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.now.slice(0, 19), '2028-02-29T00:00:00');
  });

  test('a sandbox clock is set within 1970–9999 at create too', async () => {
    for (const clock of ['0000-01-01', '1969-12-31T23:59:59Z', '9999-12-31T23:59:59-23:59', '2027-02-29']) {
      const r = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: { clock } });
      assert.equal(r.status, 400, `${clock}: ${r.text}`);
      assert.deepEqual(fields(r), ['clock']);
    }
  });
});

describe('the end of supported time', () => {
  test('a sale made on 9999-12-31 settles when the clock reaches the last instant (was pending forever)', async () => {
    const sb = await newSandbox(s, { clock: '9999-12-31T00:00:00Z' });
    const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
    assert.equal(sale.status, 200, sale.text);
    assert.ok(sale.body.created_at.startsWith('9999-12-31T'), sale.body.created_at);
    // Past the last instant is refused; the last instant itself closes the day.
    assert.equal((await moveClock(sb, { advance: '1d' })).status, 400);
    const moved = await moveClock(sb, { set: '9999-12-31T23:59:59.999Z' });
    assert.equal(moved.status, 200, moved.text);
    const t = await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${sale.body.id}`, { key: sb.keys.view_transactions });
    assert.equal(t.body.status, 'settled', t.text);
    // A report window ending at the clock's time is answered.
    const report = await s.call('GET', `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/transactions/reporting?type=count&start=9999-12-30`, { key: sb.keys.view_transactions });
    assert.equal(report.status, 200, report.text);
    assert.equal(report.body.total_count, 1);
  });

  test('a 6-period plan started at 9999-12-31T23:59:59-23:59 (year 10000 in UTC) is a 400 on start_date, never 6 charges at once', async () => {
    const sb = await newSandbox(s, { demo: true });
    const key = sb.keys.manage_transactions;
    const base = `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/recurring`;
    const plan = await s.call('POST', `${base}/plans`, { key, body: { name: 'Six', amount: 1000, billing_cycle: 'monthly', duration: '6' } });
    assert.equal(plan.status, 200, plan.text);
    const before = (await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ?', [sb.group_id]))!.n;
    for (const start_date of ['9999-12-31T23:59:59-23:59', '0000-01-01', '2027-02-29', '2027-01-01T24:00:00Z']) {
      const r = await s.call('POST', `${base}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: sb.customer_id, card_id: sb.card_id, start_date } });
      assert.equal(r.status, 400, `${start_date}: ${r.text}`);
      assert.deepEqual(fields(r), ['start_date'], start_date);
    }
    assert.equal((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ?', [sb.group_id]))!.n, before);
  });
});

describe('dates and instants of requests', () => {
  test('expires_at 2027-02-31 is a 400 naming expires_at (was stored as 2027-03-03); a valid one is stored in the fixed-width UTC form', async () => {
    const sb = await newSandbox(s);
    const create = (expires_at: string) => s.call('POST', `/api/v1/groups/${sb.group_id}/payment-links`, {
      key: sb.keys.manage_transactions, body: { amount: 500, description: 'Tickets', expires_at },
    });
    for (const bad of ['2027-02-31T00:00:00Z', '2027-02-30T10:00:00+01:00', '2027-01-01T24:00:00Z', '10000-01-01T00:00:00Z', '2027-03-01']) {
      const r = await create(bad);
      assert.equal(r.status, 400, `${bad}: ${r.text}`);
      assert.deepEqual(fields(r), ['expires_at'], bad);
    }
    const ok = await create('2027-03-01T09:30:00.5+05:30');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.expires_at, '2027-03-01T04:00:00.500Z');
  });

  test('report windows and events created_from/created_to: impossible dates are 400s naming the field; offsets select the right rows', async () => {
    const sb = await newSandbox(s, { clock: '2027-06-15T12:00:00Z' });
    const report = (q: string) => s.call('GET', `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/transactions/reporting?type=count&${q}`, { key: sb.keys.view_transactions });
    const events = (q: string) => s.call('GET', `/api/v1/groups/${sb.group_id}/events?${q}`, { key: sb.keys.view_transactions });
    for (const [q, field] of [['start=2027-02-31', 'start'], ['end=2027-06-31T00:00:00Z', 'end'], ['start=1969-12-31', 'start'], ['end=2027-06-15T24:00:00Z', 'end']]) {
      const r = await report(q!);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.deepEqual(fields(r), [field], q);
    }
    for (const [q, field] of [['created_from=2027-02-31', 'created_from'], ['created_to=2027-02-29T00:00:00Z', 'created_to'], ['created_from=9999-12-31T23:59:59-23:59', 'created_from']]) {
      const r = await events(q!);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.deepEqual(fields(r), [field], q);
    }
    const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
    assert.equal(sale.status, 200, sale.text);
    // The sale's instant written at +02:00: a window and a created_from with an offset see it exactly at its edge.
    const at = Date.parse(sale.body.created_at);
    const plus2 = (ms: number) => `${new Date(ms + 2 * 3_600_000).toISOString().slice(0, 23)}%2B02:00`;
    assert.equal((await report(`start=${plus2(at)}&end=${plus2(at + 1000)}`)).body.total_count, 1);
    assert.equal((await report(`start=${plus2(at + 1)}`)).body.total_count, 0);
    const seen = await events(`created_from=${plus2(at)}&types=transaction.*`);
    assert.equal(seen.status, 200, seen.text);
    assert.equal(seen.body.data.items.length, 1);
    assert.equal((await events(`created_from=${plus2(at + 1)}&types=transaction.*`)).body.data.items.length, 0);
  });

  test('invoice due_date: impossible or out-of-range dates are 400s naming due_date', async () => {
    const sb = await newSandbox(s, { demo: true });
    const productId = (sb.product_ids as string[])[0];
    const partnerId = (sb.partner_ids as string[])[0];
    for (const due_date of ['2027-02-31', '2027-02-29', '1969-12-31', '10000-01-01', '2027-01-01T00:00:00Z']) {
      const r = await s.call('POST', `/api/v1/groups/${sb.group_id}/invoices`, {
        key: sb.keys.manage_invoices,
        body: { partner_id: partnerId, due_date, processor_id: sb.processor_id, card_enabled: true, ach_enabled: false, products: [{ product_id: productId, quantity: 1 }] },
      });
      assert.equal(r.status, 400, `${due_date}: ${r.text}`);
      assert.deepEqual(fields(r), ['due_date'], due_date);
    }
  });
});
