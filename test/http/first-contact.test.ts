// What a newcomer's first requests meet: a browser at the server's root is sent to the
// reference; a known path with the wrong method is a 405 naming the methods it has; a
// missing field "is required"; an unknown query parameter or field names the nearest one.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

test('GET / and GET /api/v1 redirect a browser to /docs, with a small page for clients that do not follow', async () => {
  for (const path of ['/', '/api/v1', '/api/v1/']) {
    const res = await fetch(s.url + path, { redirect: 'manual' });
    assert.equal(res.status, 302, path);
    assert.equal(res.headers.get('location'), '/docs');
    assert.match(await res.text(), /<a href="\/docs">/);
  }
  const followed = await fetch(`${s.url}/`);
  assert.equal(followed.status, 200);
  assert.match(followed.headers.get('content-type') ?? '', /text\/html/);
  // Another method at the root is not a page: the usual 404.
  assert.equal((await s.call('POST', '/', { body: {} })).status, 404);
});

test('a known path with a method it does not answer is a 405 with Allow and the error JSON', async () => {
  const g = s.demo.group_id;
  const r = await s.call('DELETE', `/api/v1/groups/${g}/transaction`, { key: s.demo.keys.manage_transactions });
  assert.equal(r.status, 405);
  assert.equal(r.headers.get('allow'), 'POST');
  assert.equal(r.body.error.type, 'invalid_request');
  assert.match(r.body.error.message, /method DELETE is not allowed on \/api\/v1\/groups\/[^ ]+\/transaction: it answers POST/);
  const endpoints = await s.call('PUT', `/api/v1/groups/${g}/webhook_endpoints`);
  assert.equal(endpoints.status, 405);
  assert.equal(endpoints.headers.get('allow'), 'GET, POST');
  // An unknown path stays a 404, and a preflight a 204.
  assert.equal((await s.call('GET', `/api/v1/groups/${g}/nothing-here`)).status, 404);
  assert.equal((await s.call('OPTIONS', `/api/v1/groups/${g}/transaction`)).status, 204);
});

test('a missing required field says "is required", whatever its rule', async () => {
  const body: Record<string, unknown> = saleBody(s.demo.processor_id);
  delete body.source;
  const r = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: s.demo.keys.manage_transactions, body });
  assert.equal(r.status, 400);
  const source = (r.body.error.fields as { path: string; message: string }[]).find((f) => f.path === 'source');
  assert.match(source?.message ?? '', /^is required \(must be one of /);
  const { email_address: _, ...noEmail } = saleBody(s.demo.processor_id) as Record<string, unknown>;
  const e = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: s.demo.keys.manage_transactions, body: noEmail });
  assert.match((e.body.error.fields as { path: string; message: string }[]).find((f) => f.path === 'email_address')?.message ?? '', /^is required/);
});

test('an unknown query parameter names the nearest known one', async () => {
  const path = `/api/v1/groups/${s.demo.group_id}/processing/${s.demo.linked_account_id}/transactions/reporting?type=count&status=settled`;
  const r = await s.call('GET', path, { key: s.demo.keys.view_transactions });
  assert.equal(r.status, 400);
  assert.deepEqual(r.body.error.fields, [{ path: 'status', message: 'is not a query parameter of this endpoint: did you mean statuses?' }]);
});
