// The dashboard's Requests views over plain HTTP: the journal's table lists a sale, a
// request's page shows its bodies, the events it caused and a curl command with the key as
// a placeholder; search by a request id opens its page; an object's page lists the requests
// that touched it; a path and a body holding `<img src=x onerror=alert(1)>` are text.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { dashboardServer, makeSandbox, type DashboardSandbox, httpSession } from '../helpers/dashboard.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

let s: TestServer;
let box: DashboardSandbox;
let cookie: string;
before(async () => {
  s = await dashboardServer();
  box = await makeSandbox(s, 'Requests sandbox');
  ({ cookie } = await httpSession(s));
});
after(async () => {
  await s?.close();
});

const page = async (path: string) => {
  const r = await fetch(s.url + path, { headers: { cookie }, redirect: 'manual' });
  return { status: r.status, location: r.headers.get('location'), text: await r.text() };
};

/** A raw GET (fetch would escape the path's `<` and spaces). */
function rawGet(path: string, key: string): Promise<number> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET', headers: { authorization: key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a sale is in the Requests table, and its page shows its bodies, its event and a curl command without a key', async () => {
  const key = box.keys.manage_transactions!;
  const sale = await s.call('POST', `/api/v1/groups/${box.group_id}/transaction`, { key, body: saleBody(box.processor_id), headers: { 'idempotency-key': 'dash-req-1' } });
  assert.equal(sale.status, 200, sale.text);
  const list = await page(`/dashboard/groups/${box.group_id}/requests?method=POST&status=2xx`);
  assert.equal(list.status, 200);
  const row = new RegExp(`data-request-id="([0-9a-f-]{36})">[^]*?/api/v1/groups/${box.group_id}/transaction<[^]*?dash-req-1`);
  const id = row.exec(list.text)?.[1];
  assert.ok(id, 'the sale is a row of the table');
  assert.doesNotMatch((await page(`/dashboard/groups/${box.group_id}/requests?method=GET`)).text, new RegExp(`data-request-id="${id}"`), 'the method filter leaves it out');

  const one = await page(`/dashboard/groups/${box.group_id}/requests/${id}`);
  assert.equal(one.status, 200);
  assert.match(one.text, /<h2 id="request-body">Request body<\/h2><pre class="json" tabindex="0">/);
  assert.match(one.text, new RegExp(`&quot;id&quot;: &quot;${sale.body.id}&quot;`), 'the answer is shown');
  assert.match(one.text, /transaction\.approved/, 'the event it caused');
  assert.match(one.text, /Authorization: \$PAYCTL_KEY/);
  assert.match(one.text, /<dt>Idempotency-Key<\/dt><dd>dash-req-1<\/dd>/i, 'the headers kept');
  assert.match(one.text, /-H &#39;Idempotency-Key: dash-req-1&#39;/i, 'the curl command sends the same key');
  assert.ok(!one.text.includes(key), 'no key on the page');
  assert.match(one.text, new RegExp(`q=${sale.body.id}`), 'a link to the object it made');

  const found = await page(`/dashboard/search?q=${id}&group=${box.group_id}`);
  assert.equal(found.status, 303);
  assert.equal(found.location, `/dashboard/groups/${box.group_id}/requests/${id}`);

  const object = await page(`/dashboard/groups/${box.group_id}/objects/transaction/${sale.body.id}`);
  assert.match(object.text, /Requests that touched it/);
  assert.match(object.text, new RegExp(`/requests/${id}"`));
});

test('an unknown request id is a 404 page', async () => {
  const r = await page(`/dashboard/groups/${box.group_id}/requests/00000000-0000-4000-8000-000000000000`);
  assert.equal(r.status, 404);
  assert.match(r.text, /not in this group/);
});

test('a path and a body holding <img src=x onerror=alert(1)> are text on the Requests pages', async () => {
  const made = await s.call('POST', `/api/v1/groups/${box.group_id}/customers`, { key: box.keys.manage_customers, body: { first_name: HOSTILE, last_name: 'Mallory' } });
  assert.equal(made.status, 200, made.text);
  await rawGet(`/api/v1/groups/${box.group_id}/customers/<img%20src=x%20onerror=alert(1)>`, box.keys.manage_customers!);
  const list = await page(`/dashboard/groups/${box.group_id}/requests`);
  assert.equal(list.status, 200);
  assert.ok(!list.text.includes('<img'), 'no img element in the table');
  const ids = [...list.text.matchAll(/data-request-id="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
  let bodies = 0;
  for (const id of ids.slice(0, 5)) {
    const one = await page(`/dashboard/groups/${box.group_id}/requests/${id}`);
    assert.ok(!one.text.includes('<img'), `no img element on ${id}'s page`);
    if (one.text.includes('&lt;img src=x onerror=alert(1)&gt;')) bodies++;
  }
  assert.ok(bodies >= 1, 'the hostile body shows as text');
  assert.ok(list.text.includes('&lt;img'), 'the hostile path shows as text');
});
