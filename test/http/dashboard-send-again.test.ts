// The dashboard's "send again" over plain HTTP: a customer create sent again makes a second
// customer and a new journal entry (with a new Idempotency-Key, never the old one); a sale
// whose body the journal masked (a card number in its order_id) is refused with the reason,
// and nothing is sent; a POST without the CSRF token is refused and changes nothing; and
// the rule of what cannot be sent again names each reason.
import '../helpers/env.js';
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { allRoutes } from '../../src/http/routes/index.js';
import { whyNotAgain } from '../../src/http/dashboard/views/send-again.js';
import { ADMIN_TOKEN, dashboardServer, makeSandbox, type DashboardSandbox, httpSession } from '../helpers/dashboard.js';

let s: TestServer;
let box: DashboardSandbox;
let cookie: string;
let csrf: string;
before(async () => {
  s = await dashboardServer();
  box = await makeSandbox(s, 'Send-again sandbox');
  ({ cookie, csrf } = await httpSession(s));
  assert.ok(csrf, 'the signed-in page carries a CSRF token');
});
after(async () => {
  await s?.close();
});

function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (path: string, withCsrf = true) =>
  send('POST', path, { cookie, origin: s.url, 'content-type': 'application/x-www-form-urlencoded' }, withCsrf ? `_csrf=${csrf}` : '');

interface Entry {
  id: string;
  method: string;
  path: string;
  status: number;
  idempotency_key: string | null;
  body: unknown;
  answer: unknown;
}

/** The group's journal (the API's own list), oldest first. */
async function journal(path?: string): Promise<Entry[]> {
  const q = new URLSearchParams({ limit: '1000', ...(path ? { path } : {}) });
  const r = await s.call('GET', `/api/v1/sandboxes/${box.group_id}/requests?${q}`, { headers: { authorization: ADMIN_TOKEN } });
  assert.equal(r.status, 200, r.text);
  return (r.body as { data: { items: Entry[] } }).data.items;
}

/** The customers made so far: the ids the journal's customer creates answered. */
async function customerIds(): Promise<string[]> {
  const made = await journal(`/api/v1/groups/${box.group_id}/customers`);
  return made.filter((e) => e.method === 'POST' && e.status === 200).map((e) => (e.answer as { id: string }).id);
}

test('a customer create sent again makes a second customer and a new journal entry, with a new Idempotency-Key', async () => {
  const path = `/api/v1/groups/${box.group_id}/customers`;
  const made = await s.call('POST', path, { key: box.keys.manage_customers, body: { first_name: 'Ada', last_name: 'Again' }, headers: { 'idempotency-key': 'send-again-1' } });
  assert.equal(made.status, 200, made.text);
  const first = (await journal(path)).at(-1)!;
  assert.equal(first.idempotency_key, 'send-again-1');
  const page = await send('GET', `/dashboard/groups/${box.group_id}/requests/${first.id}`, { cookie });
  assert.match(page.text, /<h2 id="send-again">Send again<\/h2>/);
  assert.match(page.text, new RegExp(`action="/dashboard/groups/${box.group_id}/requests/${first.id}/send-again"`));
  assert.match(page.text, /sent with a new one/, 'the page says what happens to the Idempotency-Key');

  const again = await post(`/dashboard/groups/${box.group_id}/requests/${first.id}/send-again`);
  assert.equal(again.status, 303, again.text);
  const entries = await journal(path);
  const second = entries.at(-1)!;
  assert.notEqual(second.id, first.id, 'a new journal entry');
  assert.equal(again.headers.location, `/dashboard/groups/${box.group_id}/requests/${second.id}`, 'the new call’s page');
  assert.equal(second.status, 200);
  assert.equal(second.method, 'POST');
  assert.deepEqual(second.body, first.body, 'the same body');
  assert.match(second.idempotency_key ?? '', /^dashboard-[0-9a-f-]{36}$/, 'a fresh Idempotency-Key, not the old one');
  const madeAgain = (second.answer as { id: string }).id;
  assert.notEqual(madeAgain, made.body.id, 'a second customer');
  const read = await s.call('GET', `${path}/${madeAgain}`, { key: box.keys.manage_customers });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.first_name, 'Ada');

  const shown = await send('GET', again.headers.location!, { cookie });
  assert.equal(shown.status, 200);
  assert.match(shown.text, new RegExp(`Sent again from request ${first.id}: answered 200`));
});

test('a sale whose body the journal masked is refused with the reason, and nothing is sent', async () => {
  const path = `/api/v1/groups/${box.group_id}/transaction`;
  const sale = await s.call('POST', path, { key: box.keys.manage_transactions, body: saleBody(box.processor_id, { orderId: '4111111111111111' }) });
  assert.equal(sale.status, 200, sale.text);
  const entry = (await journal(path)).at(-1)!;
  assert.equal((entry.body as { order_id: string }).order_id, '[redacted]', 'the journal masked the card number');

  const page = await send('GET', `/dashboard/groups/${box.group_id}/requests/${entry.id}`, { cookie });
  assert.match(page.text, /This call cannot be sent again: its body’s order_id was masked by the journal/);
  assert.match(page.text, /<button type="button" disabled aria-describedby="send-again-why">Send again<\/button>/);
  assert.doesNotMatch(page.text, /\/send-again"/, 'no form to send it');

  const before = (await journal()).length;
  const refused = await post(`/dashboard/groups/${box.group_id}/requests/${entry.id}/send-again`);
  assert.equal(refused.status, 409);
  assert.match(refused.text, new RegExp(`Request ${entry.id} cannot be sent again: its body’s order_id was masked`));
  assert.equal((await journal()).length, before, 'no call was made');
});

test('a send-again without the CSRF token is refused and sends nothing', async () => {
  const path = `/api/v1/groups/${box.group_id}/customers`;
  const entry = (await journal(path)).at(-1)!;
  const customers = await customerIds();
  const refused = await post(`/dashboard/groups/${box.group_id}/requests/${entry.id}/send-again`, false);
  assert.equal(refused.status, 403);
  assert.match(refused.text, /CSRF/);
  const other = await send('POST', `/dashboard/groups/${box.group_id}/requests/${entry.id}/send-again`, { cookie, origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, `_csrf=${csrf}`);
  assert.equal(other.status, 403, 'another Origin is refused too');
  assert.deepEqual(await customerIds(), customers, 'no customer made');
});

describe('what cannot be sent again, and why (the rule, without a server)', () => {
  const routes = allRoutes();
  const G = '01a25000-0000-7000-8000-000000000000';
  const call = (method: string, route: string, over: Partial<Parameters<typeof whyNotAgain>[1]> = {}) => ({
    id: '01a25000-0000-7000-8000-000000000001', seq: 1, at: '2026-12-07T00:00:00.000Z', method, path: route.replace(':group_id', G), route, status: 200,
    duration_ms: 1, idempotency_key: null, fault: null, body: null, answer: null, note: null, headers: {}, ...over,
  });
  test('a call kept whole can be sent again', () => {
    assert.equal(whyNotAgain(routes, call('POST', '/api/v1/groups/:group_id/customers', { body: { first_name: 'A', last_name: 'B' } })), undefined);
    assert.equal(whyNotAgain(routes, call('GET', '/api/v1/groups/:group_id/customers/:customer_id')), undefined);
  });
  test('each reason is named', () => {
    const cases: Array<[ReturnType<typeof call>, RegExp]> = [
      [call('POST', '/api/v1/groups/:group_id/customers', { body: { first_name: 'A', tax: { ssn: '•••••6789' } } }), /its body’s tax\.ssn was masked/],
      [call('POST', '/api/v1/groups/:group_id/customers', { body: { items: [{ note: 'card [redacted] here' }] } }), /its body’s items\.0\.note was masked/],
      [call('POST', '/api/v1/groups/:group_id/customers', { note: 'request body of 300 KiB not kept (over the journal’s 256 KiB a body)' }), /its body was not kept/],
      [call('GET', '/api/v1/groups/:group_id/customers/:customer_id', { path: `/api/v1/groups/${G}/customers/[redacted]` }), /its path holds a value the journal masked/],
      [call('POST', '/api/v1/tokens'), /tokenize call/],
      [call('POST', '/api/v1/payment-links/:payment_link_id/pay'), /session token/],
      [call('GET', '/api/v1/groups/:group_id/events/stream'), /stream of events/],
      [call('POST', '/api/v1/groups/:group_id/customers', { headers: { 'Payctl-Simulate': '[redacted]' } }), /a header it sent holds a value the journal masked/],
      [call('POST', '/api/v1/groups/:group_id/no-such-route'), /is not one this server answers/],
    ];
    for (const [c, why] of cases) assert.match(whyNotAgain(routes, c) ?? 'sendable', why, c.route);
  });
});
