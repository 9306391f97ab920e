import '../helpers/env.js';
import { test, before, after } from 'node:test';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createGroup } from '../../src/services/groups/groups.js';
import { createKey, revokeKey } from '../../src/services/groups/keys.js';

let s: TestServer;
let otherGroupKey: string;
let otherGroupId: string;
before(async () => {
  s = await startTestServer();
  const other = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Other Merchant' });
  otherGroupId = other.id;
  otherGroupKey = (await execute(createKey, s.p, contextFor(s.p, other.id), { permissions: ['manage_customers'] })).key;
});
after(() => s.close());

const customers = () => `/api/v1/groups/${s.demo.group_id}/customers`;

test('401 without a key, with a malformed key, with an unknown key, with a revoked key', async () => {
  assert.equal((await s.call('POST', customers(), { body: {} })).status, 401);
  assert.equal((await s.call('POST', customers(), { body: {}, key: 'hello' })).status, 401);
  assert.equal((await s.call('POST', customers(), { body: {}, key: 'sk_test_doesnotexist0000000000000000' })).status, 401);
  const k = await execute(createKey, s.p, contextFor(s.p, s.demo.group_id), { permissions: ['manage_customers'] });
  assert.equal((await s.call('POST', customers(), { body: {}, key: k.key })).status, 200);
  await execute(revokeKey, s.p, contextFor(s.p, undefined), { key_id: k.id });
  const r = await s.call('POST', customers(), { body: {}, key: k.key });
  assert.equal(r.status, 401);
  assert.equal(r.body.error.type, 'authentication_error');
});

test('a Bearer prefix is tolerated', async () => {
  const r = await s.call('POST', customers(), { body: {}, key: `Bearer ${s.demo.keys.manage_customers}` });
  assert.equal(r.status, 200);
});

test('403 with a key lacking the permission, and with a key of another group', async () => {
  const wrongPerm = await s.call('POST', customers(), { body: {}, key: s.demo.keys.view_invoices });
  assert.equal(wrongPerm.status, 403);
  assert.equal(wrongPerm.body.error.type, 'permission_error');
  const otherGroup = await s.call('POST', customers(), { body: {}, key: otherGroupKey });
  assert.equal(otherGroup.status, 403);
});

test('a resource of another group is 404 on its own path', async () => {
  const created = await s.call('POST', customers(), { body: { first_name: 'Z' }, key: s.demo.keys.manage_customers });
  const r = await s.call('GET', `/api/v1/groups/${otherGroupId}/customers/${created.body.id}`, { key: otherGroupKey });
  assert.equal(r.status, 404);
  assert.equal(r.body.error.type, 'not_found');
});

test('unknown routes are JSON 404s', async () => {
  const r = await s.call('GET', '/api/v1/nothing/here');
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(r.body.error.type, 'not_found');
});

test('415 for a body that is not JSON, 400 for malformed JSON, 413 over 1 MiB', async () => {
  const key = s.demo.keys.manage_customers;
  const r415 = await s.call('POST', customers(), { key, raw: 'first_name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(r415.status, 415);
  const r400 = await s.call('POST', customers(), { key, raw: '{"first_name":', headers: { 'content-type': 'application/json' } });
  assert.equal(r400.status, 400);
  assert.equal(r400.body.error.type, 'validation_error');
  const big = JSON.stringify({ first_name: 'x'.repeat(1024 * 1024 + 10) });
  const r413 = await s.call('POST', customers(), { key, raw: big, headers: { 'content-type': 'application/json' } });
  assert.equal(r413.status, 413);
});

test('validation errors name every bad field, unknown fields included', async () => {
  const r = await s.call('POST', customers(), {
    key: s.demo.keys.manage_customers,
    body: { first_name: 'x'.repeat(65), email: 'nope', group_id: 'x' },
  });
  assert.equal(r.status, 400);
  const paths = r.body.error.fields.map((f: { path: string }) => f.path).sort();
  assert.deepEqual(paths, ['email', 'first_name', 'group_id']);
});

test('Idempotency-Key: same body replays the same object, different body is 422, one row', async () => {
  const key = s.demo.keys.manage_customers;
  const headers = { 'idempotency-key': `idem-${Date.now()}` };
  const first = await s.call('POST', customers(), { key, headers, body: { first_name: 'Idem' } });
  const second = await s.call('POST', customers(), { key, headers, body: { first_name: 'Idem' } });
  assert.equal(first.status, 200);
  assert.equal(second.status, 200);
  assert.equal(second.body.id, first.body.id);
  assert.equal(second.headers.get('idempotent-replayed'), 'true');
  const third = await s.call('POST', customers(), { key, headers, body: { first_name: 'Other' } });
  assert.equal(third.status, 422);
  const rows = await s.p.db.all('SELECT id FROM customers WHERE first_name = ?', ['Idem']);
  assert.equal(rows.length, 1);
});

test('Idempotency-Key: 20 concurrent requests execute once; the rest replay or get 409', async () => {
  const key = s.demo.keys.manage_customers;
  const headers = { 'idempotency-key': `race-${Date.now()}` };
  const replies = await Promise.all(
    Array.from({ length: 20 }, () => s.call('POST', customers(), { key, headers, body: { first_name: 'Racer' } })),
  );
  for (const r of replies) assert.ok(r.status === 200 || r.status === 409, `status ${r.status}`);
  const ids = new Set(replies.filter((r) => r.status === 200).map((r) => r.body.id));
  assert.equal(ids.size, 1);
  const rows = await s.p.db.all('SELECT id FROM customers WHERE first_name = ?', ['Racer']);
  assert.equal(rows.length, 1);
});

test('an Idempotency-Key over 255 characters is refused', async () => {
  const r = await s.call('POST', customers(), {
    key: s.demo.keys.manage_customers,
    headers: { 'idempotency-key': 'k'.repeat(256) },
    body: {},
  });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.fields[0].path, 'Idempotency-Key');
});

test('tokenizer: mints a card token keeping only brand, first six, last four', async () => {
  const r = await s.call('POST', '/api/v1/tokens', {
    body: { card: { number: '5555555555554444', expiration_month: 12, expiration_year: 2099, cvv: '123', holder_name: 'A B' } },
  });
  assert.equal(r.status, 200);
  assert.equal(r.body.card.brand, 'Mastercard');
  assert.equal(r.body.card.first_six, '555555');
  assert.equal(r.body.card.last_four, '4444');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  assert.ok(!r.text.includes('5555555555554444'));
  const row = await s.p.db.get<Record<string, unknown>>('SELECT * FROM tokens WHERE token = ?', [r.body.token]);
  assert.ok(row);
  assert.ok(!JSON.stringify(row).includes('5555555555554444'));
});

test('tokenizer: Luhn failure, expired card, wrong CVV length, bad routing number', async () => {
  const card = (c: object) => s.call('POST', '/api/v1/tokens', { body: { card: { number: '4111111111111111', expiration_month: 12, expiration_year: 2099, cvv: '123', ...c } } });
  assert.deepEqual((await card({ number: '4111111111111112' })).body.error.fields.map((f: { path: string }) => f.path), ['card.number']);
  assert.deepEqual((await card({ expiration_year: 2001 })).body.error.fields.map((f: { path: string }) => f.path), ['card.expiration_year']);
  assert.deepEqual((await card({ number: '378282246310005', cvv: '123' })).body.error.fields.map((f: { path: string }) => f.path), ['card.cvv']);
  const bank = await s.call('POST', '/api/v1/tokens', { body: { bank_account: { routing_number: '123456789', account_number: '1234567', account_type: 'checking' } } });
  assert.equal(bank.status, 400);
  assert.equal(bank.body.error.fields[0].path, 'bank_account.routing_number');
});

test('OpenAPI 3.1 document covers every API route and tags extensions', async () => {
  const r = await s.call('GET', '/api/v1/openapi.json');
  assert.equal(r.status, 200);
  assert.equal(r.body.openapi, '3.1.0');
  const { allRoutes } = await import('../../src/http/app.js').then(() => import('../../src/http/routes/index.js'));
  for (const route of allRoutes().filter((x) => !x.hidden)) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    const op = r.body.paths[path]?.[route.method.toLowerCase()];
    assert.ok(op, `missing ${route.method} ${path}`);
    assert.equal(op.tags.includes('extension'), Boolean(route.extension), path);
    for (const code of Object.keys(op.responses)) assert.match(code, /^[1-5]\d\d$/);
  }
  const docs = await fetch(`${s.url}/docs`);
  assert.equal(docs.status, 200);
  const html = await docs.text();
  assert.match(html, /openapi\.json/);
  assert.doesNotMatch(html, /https?:\/\/(cdn|unpkg|jsdelivr)/);
});

test('the OpenAPI document validates against the OpenAPI 3.1 schema', async () => {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const doc = (await s.call('GET', '/api/v1/openapi.json')).body;
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(validator.version, '3.1');
  assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
});

test('an operation without a body shape refuses fields by name and accepts {}', async () => {
  const txId = (s.demo.transaction_ids as string[])[0]!;
  const path = `/api/v1/groups/${s.demo.group_id}/transaction/${txId}/void`;
  const refused = await s.call('POST', path, { key: s.demo.keys.manage_transactions, body: { status: 'settled' } });
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body.error.fields.map((f: { path: string }) => f.path), ['status']);
  const before = await s.p.db.get<{ status: string }>('SELECT status FROM transactions WHERE id = ?', [txId]);
  assert.equal(before?.status, 'pending');
  const ok = await s.call('POST', path, { key: s.demo.keys.manage_transactions, body: {} });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.status, 'voided');
});
