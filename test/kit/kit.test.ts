// payctl/testing end to end against a real `payctl serve` it starts itself: sandboxes,
// the filled paths and chosen keys of request and client, the clock, faults, and the
// webhook collector (verification, globs, duplicates, a forged delivery, timeouts).
import { withEnv } from '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startPayctl, type DemoIds, type Payctl, type Sandbox } from '../../src/testing/index.js';
import { createClient } from '../../src/client/index.js';
import { ENV } from '../../src/config/env.js';

let payctl: Payctl;
before(async () => {
  payctl = await startPayctl();
});
after(() => payctl.stop());

/** A sale of `cents` on the demo customer's stored card. */
const saleBody = (sb: Sandbox<DemoIds>, cents = 1500) =>
  ({
    type: 'sale',
    source: 'api',
    processor_id: sb.processorId,
    currency: 'USD',
    email_address: 'ada@example.com',
    email_receipt: false,
    amounts: { requested_amount: cents },
    payment_details: { customer: { customer_id: sb.demo.customer_id, card_id: sb.demo.card_id } },
  }) as const;

test('startPayctl: its own server on a free port, ready, with an admin token', async () => {
  assert.match(payctl.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(payctl.adminToken, /^padm_/);
  assert.equal((await fetch(`${payctl.url}/ready`)).status, 200);
  const list = await payctl.client.GET('/api/v1/sandboxes');
  assert.equal(list.response.status, 200);
});

test('a sandbox: ids, one key per permission, demo ids; drop makes its keys fail', async () => {
  const sb = await payctl.sandbox({ demo: true, clock: '2030-01-01T00:00:00Z' });
  assert.equal(sb.demo.processor_id, sb.processorId);
  assert.ok(sb.demo.customer_id && sb.demo.card_id);
  assert.match(sb.keys.manage_transactions!, /^sk_test_/);
  assert.equal(Object.keys(sb.keys).length, 8);
  assert.match(await sb.clock.now(), /^2030-01-01T00:0/);
  await sb.drop();
  // The kit says the sandbox was dropped (not the server's "unknown API key") …
  await assert.rejects(
    sb.request('GET', `/api/v1/groups/{group_id}/customers/${sb.demo.customer_id}`),
    new RegExp(`sandbox ${sb.groupId} \\("kit\\.test\\.js #\\d+"\\) was dropped \\(its drop\\(\\) ran\\)`),
  );
  await assert.rejects(sb.client.GET('/api/v1/groups/{group_id}/events'), /was dropped/);
  await assert.rejects(sb.webhooks.next('customer.created'), /was dropped/);
  // … and its keys no longer work.
  const r = await fetch(`${payctl.url}/api/v1/groups/${sb.groupId}/customers/${sb.demo.customer_id}`, { headers: { authorization: sb.keys.manage_customers } });
  assert.equal(r.status, 401);
  const plain = await payctl.sandbox();
  assert.equal(plain.demo, undefined);
  await plain.drop();
});

test('request: {group_id} and {linked_account_id} filled, the key of the operation sent unless { key }', async () => {
  const sb = await payctl.sandbox({ demo: true, webhooks: false });
  const sale = await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  assert.equal(sale.status, 200, JSON.stringify(sale.body));
  assert.equal(sale.body.status, 'pending');
  assert.ok(sale.headers.get('request-id'));
  // The read takes view_transactions or manage_transactions; another permission is refused.
  assert.equal((await sb.request('GET', `/api/v1/groups/{group_id}/transaction/${sale.body.id}`)).body.id, sale.body.id);
  const refused = await sb.request('GET', `/api/v1/groups/{group_id}/transaction/${sale.body.id}`, { key: sb.keys.manage_products });
  assert.equal(refused.status, 403);
  assert.equal((await sb.request('GET', `/api/v1/groups/{group_id}/transaction/${sale.body.id}`, { key: null })).status, 401);
  const plans = await sb.request('GET', '/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/plans', { query: { limit: 2 } });
  assert.equal(plans.status, 200, JSON.stringify(plans.body));
  await sb.drop();
});

test('client: typed calls with the ids filled and the right key per operation', async () => {
  const sb = await payctl.sandbox({ demo: true, webhooks: false });
  const { data, error } = await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: saleBody(sb, 2500) });
  assert.equal(error, undefined);
  assert.equal(data?.status, 'pending');
  assert.equal(data?.amounts.requested_amount, 2500);
  const customer = await sb.client.GET('/api/v1/groups/{group_id}/customers/{customer_id}', { params: { path: { customer_id: sb.demo.customer_id } } });
  assert.equal(customer.data?.id, sb.demo.customer_id);
  // A call's own Authorization wins: a key of another permission is refused.
  const refused = await sb.client.GET('/api/v1/groups/{group_id}/customers/{customer_id}', {
    params: { path: { customer_id: sb.demo.customer_id } },
    headers: { Authorization: sb.keys.view_invoices! },
  });
  assert.equal(refused.response.status, 403);
  assert.equal(refused.error?.error.type, 'permission_error');
  // payctl/client on its own.
  const api = createClient({ baseUrl: payctl.url, key: sb.keys.manage_customers });
  const again = await api.GET('/api/v1/groups/{group_id}/customers/{customer_id}', { params: { path: { group_id: sb.groupId, customer_id: sb.demo.customer_id } } });
  assert.equal(again.data?.id, sb.demo.customer_id);
  await sb.drop();
});

test('clock and webhooks: a sale settles when the clock moves, next waits for the event, none and all, clear', async () => {
  const sb = await payctl.sandbox({ demo: true });
  const sale = await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  const approved = await sb.webhooks.next((e) => e.type === 'transaction.approved' && e.data.object.id === sale.body.id);
  assert.equal(approved.data.object.status, 'pending');
  await sb.webhooks.none('transaction.settled', { within: 50 });
  const before = Date.parse(await sb.clock.now());
  const moved = await sb.clock.advance('2d');
  assert.ok(Date.parse(moved.now) - before >= 2 * 86_400_000);
  const settled = await sb.webhooks.next('transaction.settled', { timeout: 5000 });
  assert.equal(settled.data.object.status, 'settled');
  assert.ok(sb.webhooks.all('transaction.*').some((e) => e.id === approved.id));
  assert.ok(sb.webhooks.all('*.closed').length >= 1);
  // Events no next returned yet count for none: the demo's own pending sales settled too.
  await assert.rejects(sb.webhooks.none('transaction.settled', { within: 10 }), /expected no "transaction.settled" webhook/);
  for (let left = sb.webhooks.all('transaction.settled').length - 1; left > 0; left--) await sb.webhooks.next('transaction.settled');
  await sb.webhooks.none('transaction.settled', { within: 10 });
  sb.webhooks.clear();
  assert.deepEqual(sb.webhooks.all(), []);
  await assert.rejects(sb.webhooks.next('transaction.refunded', { timeout: 100 }), /no "transaction.refunded" webhook within 100 ms for sandbox .* \(nothing arrived\)/);
  await sb.drop();
});

test('the clock: frozen at 2030-01-15T12:00:00.000Z by default, moved exactly; { mode: running } or a start time override', async () => {
  const sb = await payctl.sandbox({ webhooks: false });
  assert.equal(await sb.clock.now(), '2030-01-15T12:00:00.000Z');
  const shown = await payctl.client.GET('/api/v1/sandboxes/{group_id}/clock', { params: { path: { group_id: sb.groupId } } });
  assert.equal(shown.data?.mode, 'frozen');
  assert.equal((await sb.clock.advance('1d')).now, '2030-01-16T12:00:00.000Z');
  assert.equal(await sb.clock.now(), '2030-01-16T12:00:00.000Z', 'stands still between moves');
  const at = await payctl.sandbox({ webhooks: false, clock: '2031-03-15T12:00:00Z' });
  assert.equal(await at.clock.now(), '2031-03-15T12:00:00.000Z');
  const running = await payctl.sandbox({ webhooks: false, clock: { mode: 'running' } });
  const real = await payctl.client.GET('/api/v1/sandboxes/{group_id}/clock', { params: { path: { group_id: running.groupId } } });
  assert.equal(real.data?.mode, 'running');
  assert.ok(Math.abs(Date.parse(real.data!.now) - Date.now()) < 60_000, real.data?.now);
  for (const s of [sb, at, running]) await s.drop();
});

test('next rejects listing what did arrive', async () => {
  const sb = await payctl.sandbox({ demo: true });
  await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  await sb.webhooks.next('transaction.approved');
  await assert.rejects(sb.webhooks.next('invoice.*', { timeout: 100 }), /no "invoice\.\*" webhook within 100 ms .*\(arrived: transaction\.approved\)/);
  await sb.drop();
});

test('faults: the first sale answers the injected 503, the retry goes through', async () => {
  const sb = await payctl.sandbox({ demo: true, webhooks: false });
  const rule = await sb.faults.add({ operation: 'sale', action: 'error', status: 503, first: 1 });
  assert.ok(rule.id);
  assert.equal((await sb.faults.list()).length, 1);
  const first = await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  assert.equal(first.status, 503);
  assert.match(first.headers.get('payctl-fault') ?? '', /^error; status=503/);
  const second = await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  assert.equal(second.status, 200);
  await sb.faults.remove(rule.id);
  assert.deepEqual(await sb.faults.list(), []);
  await sb.drop();
});

/** The collector's endpoint of `sb`. */
async function collectorEndpoint(sb: Sandbox): Promise<string> {
  const list = await sb.client.GET('/api/v1/groups/{group_id}/webhook_endpoints');
  const endpoint = list.data?.data.items.find((e) => e.description === 'payctl/testing webhook collector');
  assert.ok(endpoint, JSON.stringify(list.error ?? list.data));
  return endpoint.id;
}

test('a delivery a fault duplicated (same webhook-id) shows once, unless { duplicates: true }', async () => {
  const sb = await payctl.sandbox({ demo: true });
  const endpoint = await collectorEndpoint(sb);
  const fault = await sb.request('POST', `/api/v1/groups/{group_id}/webhook_endpoints/${endpoint}/faults`, { body: { action: 'duplicate' } });
  assert.equal(fault.status, 201, JSON.stringify(fault.body));
  await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  const approved = await sb.webhooks.next('transaction.approved');
  const duplicate = await sb.webhooks.next('transaction.approved', { duplicates: true });
  assert.equal(duplicate.id, approved.id);
  await assert.rejects(sb.webhooks.next('transaction.approved', { timeout: 100 }), /no "transaction.approved" webhook within 100 ms/);
  assert.equal(sb.webhooks.all('transaction.approved').length, 1);
  assert.deepEqual(sb.webhooks.all('transaction.approved', { duplicates: true }).map((e) => e.id), [approved.id, approved.id]);
  await sb.drop();
});

test('a delivery that fails verification makes next reject with the reason', async () => {
  const sb = await payctl.sandbox({ demo: true });
  const endpoint = await collectorEndpoint(sb);
  await sb.request('POST', `/api/v1/groups/{group_id}/webhook_endpoints/${endpoint}/faults`, { body: { action: 'bad_signature', first: 1 } });
  await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: saleBody(sb) });
  await assert.rejects(sb.webhooks.next('transaction.approved'), /^Error: webhook [0-9a-f-]{36} to sandbox .* failed verification: No matching signature found$/);
  assert.deepEqual(sb.webhooks.all(), []);
  await sb.drop();
});

test('webhooks: false makes no endpoint, and its webhooks say so', async () => {
  const sb = await payctl.sandbox({ webhooks: false });
  const list = await sb.client.GET('/api/v1/groups/{group_id}/webhook_endpoints');
  assert.deepEqual(list.data?.data.items, []);
  await assert.rejects(sb.webhooks.next(), /made with webhooks: false/);
  await sb.drop();
});

test('await using: the sandbox is dropped at the end of its block', async () => {
  let groupId = '';
  {
    await using sb = await payctl.sandbox();
    groupId = sb.groupId;
  }
  const r = await payctl.client.GET('/api/v1/sandboxes/{group_id}', { params: { path: { group_id: groupId } } });
  assert.equal(r.response.status, 404);
});

test('a running server: by url and admin token, or PAYCTL_URL and PAYCTL_ADMIN_TOKEN; stop leaves it running', async () => {
  const shared = await startPayctl({ url: `${payctl.url}/api/v1`, adminToken: payctl.adminToken });
  assert.equal(shared.url, payctl.url);
  const sb = await shared.sandbox();
  await sb.drop();
  await shared.stop();
  assert.equal((await fetch(`${payctl.url}/health`)).status, 200);
  await withEnv({ [ENV.testingUrl]: payctl.url, [ENV.adminToken]: undefined }, () =>
    assert.rejects(startPayctl(), /needs its sandbox admin token: pass adminToken or set PAYCTL_ADMIN_TOKEN/),
  );
  await withEnv({ [ENV.testingUrl]: payctl.url, [ENV.adminToken]: payctl.adminToken }, async () => {
    const fromEnv = await startPayctl();
    assert.equal(fromEnv.url, payctl.url);
    await (await fromEnv.sandbox()).drop();
  });
  await assert.rejects(startPayctl({ url: 'http://127.0.0.1:9', adminToken: 'padm_x', readyTimeout: 300 }), /payctl at http:\/\/127\.0\.0\.1:9 is not ready after 300 ms/);
});
