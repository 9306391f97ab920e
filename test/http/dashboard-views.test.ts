// The dashboard's controls and views over plain HTTP, each checked against what the API
// says: the clock panel's +1 hour and +1 month presets and "Set" on a frozen sandbox (the
// clock moves by exactly that, the page shows it; a bad Set names the field); the events
// page's next retry of a failed delivery and the endpoints' success rate and fault-rule
// counts; the Requests view's filters (what each leaves out), its pages newest first and
// a page whose start the journal no longer holds; the object lists' filters and their
// Next/Previous pages (transactions and payment links), as the API pages them.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { ADMIN_TOKEN, dashboardServer, makeSandbox, type DashboardSandbox, httpSession } from '../helpers/dashboard.js';
import { when } from '../../src/http/dashboard/layout.js';

const FROZEN = { time: '2030-01-15T12:00:00.000Z', mode: 'frozen' };

let s: TestServer;
let cookie: string;
let csrf: string;
const receivers: Receiver[] = [];
before(async () => {
  s = await dashboardServer();
  ({ cookie, csrf } = await httpSession(s));
  assert.ok(csrf, 'a CSRF token on the page');
});
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.close();
});

async function page(path: string): Promise<{ status: number; location: string | null; text: string }> {
  const r = await fetch(s.url + path, { headers: { cookie }, redirect: 'manual' });
  return { status: r.status, location: r.headers.get('location'), text: await r.text() };
}

async function post(path: string, fields: Record<string, string>, referer: string): Promise<{ status: number; location: string | null }> {
  const r = await fetch(s.url + path, {
    method: 'POST',
    headers: { cookie, origin: s.url, referer: s.url + referer, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    redirect: 'manual',
  });
  await r.text();
  return { status: r.status, location: r.headers.get('location') };
}

async function frozenSandbox(name: string, demo = false): Promise<DashboardSandbox> {
  const r = await s.call('POST', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN }, body: { name, demo, clock: FROZEN } });
  assert.equal(r.status, 201, r.text);
  return r.body as DashboardSandbox;
}

const clockNow = async (g: string): Promise<string> => {
  const r = await s.call('GET', `/api/v1/sandboxes/${g}/clock`, { headers: { authorization: ADMIN_TOKEN } });
  assert.equal(r.status, 200, r.text);
  return r.body.now as string;
};

const unescape = (href: string) => href.replaceAll('&amp;', '&');
const link = (text: string, rel: 'next' | 'prev'): string | undefined => {
  const m = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(text);
  return m ? unescape(m[1]!) : undefined;
};

// ---------------------------------------------------------------------------------------
// The clock panel

test('clock: +1 hour and +1 month move a frozen sandbox by exactly that, the page shows it; Set lands on the instant; a bad Set names the field', async () => {
  const box = await frozenSandbox('Clock presets');
  const g = box.group_id;
  const on = `/dashboard/groups/${g}/faults`;
  const clock = `/dashboard/groups/${g}/clock`;
  const shown = async (iso: string) => {
    const text = (await page(on)).text;
    assert.match(text, new RegExp(`<time datetime="${iso.replaceAll('.', '\\.')}" data-clock-now>${when(iso)}</time> <span class="tag">frozen</span>`), `the panel shows ${iso}`);
  };
  assert.equal(await clockNow(g), FROZEN.time);
  await shown(FROZEN.time);

  const hour = await post(clock, { preset: '1h' }, on);
  assert.equal(hour.status, 303);
  assert.equal(hour.location, on, 'back to the page the form was on');
  assert.equal(await clockNow(g), '2030-01-15T13:00:00.000Z', '+1 hour: exactly one hour on');
  await shown('2030-01-15T13:00:00.000Z');

  assert.equal((await post(clock, { preset: '1mo' }, on)).status, 303);
  assert.equal(await clockNow(g), '2030-02-15T13:00:00.000Z', '+1 month: the same day and time of the next month');
  await shown('2030-02-15T13:00:00.000Z');

  assert.equal((await post(clock, { set: '2030-06-01T08:30:00Z' }, on)).status, 303);
  assert.equal(await clockNow(g), '2030-06-01T08:30:00.000Z', 'Set lands on the instant given');
  await shown('2030-06-01T08:30:00.000Z');

  assert.equal((await post(clock, { set: 'next tuesday' }, on)).status, 303);
  const refused = (await page(on)).text;
  const error = /<p class="error" role="alert">([^<]+)<\/p>/.exec(refused)?.[1];
  assert.ok(error, 'a refused Set shows an error');
  assert.match(error, /^set\b/, `the error names the field: ${error}`);
  assert.equal(await clockNow(g), '2030-06-01T08:30:00.000Z', 'a refused Set does not move the clock');
  assert.doesNotMatch((await page(on)).text, /role="alert"/, 'the error is shown once');
});

// ---------------------------------------------------------------------------------------
// Events and webhooks

test('events: a failed delivery shows its next retry; the endpoints table shows each one’s success rate and its fault rules', async () => {
  const box = await frozenSandbox('Events view', true);
  const g = box.group_id;
  const key = box.keys.manage_webhooks!;
  // Answers 500 to the deliveries of the order "fail-me", 200 to the others. (A frozen group's
  // deliveries keep real time, docs/clock.md: a failed one is tried again 5 s later.)
  const flaky = await startReceiver((r) => (r.body.includes('fail-me') ? { status: 500, body: 'receiver broke' } : { status: 200, body: 'ok' }));
  receivers.push(flaky);
  const endpoint = async (url: string, events: string[]) => {
    const r = await s.call('POST', `/api/v1/groups/${g}/webhook_endpoints`, { key, body: { url, enabled_events: events } });
    assert.equal(r.status, 200, r.text);
    return r.body as { id: string; url: string };
  };
  const a = await endpoint(flaky.url, ['transaction.*']);
  // An endpoint of events that never come, with two fault rules: counted, with no delivery.
  const quiet = await endpoint(`${flaky.url}/quiet`, ['invoice.*']);
  for (const rule of [{ action: 'drop', first: 1 }, { action: 'duplicate', first: 1 }]) {
    const r = await s.call('POST', `/api/v1/groups/${g}/webhook_endpoints/${quiet.id}/faults`, { key, body: rule });
    assert.equal(r.status, 201, r.text);
  }

  const sale = async (orderId: string) => {
    const r = await s.call('POST', `/api/v1/groups/${g}/transaction`, { key: box.keys.manage_transactions, body: saleBody(box.processor_id, { orderId }) });
    assert.equal(r.status, 200, r.text);
    return r.body.id as string;
  };
  const failedTx = await sale('fail-me');
  const okTx = await sale('fine');
  type Attempt = { event_id: string; attempt: number; status: string; next_attempt_at: string | null };
  const attemptsOf = async () => (await s.call('GET', `/api/v1/groups/${g}/webhook_endpoints/${a.id}/deliveries?limit=100`, { key })).body.data.items as Attempt[];
  const events = (await s.call('GET', `/api/v1/groups/${g}/events?limit=100`, { key })).body.data.items as Array<{ id: string; data: { object: { id: string } } }>;
  // The demo's own events came before the endpoint: only the two sales' events are delivered.
  const saleEvents = events.filter((e) => e.data.object.id === failedTx || e.data.object.id === okTx);
  assert.ok(saleEvents.some((e) => e.data.object.id === failedTx) && saleEvents.some((e) => e.data.object.id === okTx), 'each sale made an event');
  for (let i = 0; i < 200 && new Set((await attemptsOf()).map((x) => x.event_id)).size < saleEvents.length; i++) await new Promise((r) => setTimeout(r, 50));

  // The page and the API's attempts at one moment: read again if a retry came between them.
  let attempts: Attempt[] = [];
  let text = '';
  for (let i = 0; i < 5; i++) {
    const before = await attemptsOf();
    text = (await page(`/dashboard/groups/${g}/events`)).text;
    attempts = await attemptsOf();
    if (before.length === attempts.length) break;
  }
  assert.equal(new Set(attempts.map((x) => x.event_id)).size, saleEvents.length, 'every event of the sales was delivered');
  const rowOf = (eventId: string) => {
    const m = new RegExp(`<tr data-event-type="[^"]+">(?:(?!</tr>)[^])*?/objects/event/${eventId}"(?:(?!</tr>)[^])*</tr>`).exec(text);
    assert.ok(m, `the event ${eventId} is a row`);
    return m[0];
  };
  const failed = attempts.filter((x) => x.status === 'failed');
  const succeeded = attempts.filter((x) => x.status === 'succeeded');
  assert.ok(failed.length >= 1, 'the fail-me order’s delivery failed');
  assert.ok(succeeded.length >= 1, 'the other order’s was delivered');
  for (const x of failed) {
    assert.equal(events.find((e) => e.id === x.event_id)?.data.object.id, failedTx);
    const row = rowOf(x.event_id);
    assert.match(row, new RegExp(`<span class="status-failed">failed</span> #${x.attempt} → ${flaky.url.replaceAll('.', '\\.')}: 500, \\d+ ms — <q>receiver broke</q>`), 'the attempt: its status, the answer and its start');
    const latest = Math.max(...failed.filter((y) => y.event_id === x.event_id).map((y) => y.attempt));
    if (x.attempt === latest) {
      assert.ok(x.next_attempt_at, 'the API has a next retry for it');
      assert.ok(row.includes(`; next retry ${when(x.next_attempt_at)}</li>`), `the row shows the next retry ${when(x.next_attempt_at)}: ${row}`);
    }
  }
  for (const x of succeeded) {
    assert.equal(events.find((e) => e.id === x.event_id)?.data.object.id, okTx);
    const row = rowOf(x.event_id);
    assert.match(row, /<span class="status-succeeded">succeeded<\/span> #1 → [^<]+: 200/);
    assert.doesNotMatch(row, /next retry/, 'a delivered event has no next retry');
  }

  const endpointRow = (url: string) => {
    const m = new RegExp(`<tr><td>${url.replaceAll('.', '\\.')}</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>`).exec(text);
    assert.ok(m, `the endpoint ${url} is a row of the endpoints table`);
    return { events: m[1], rate: m[2], faults: m[3] };
  };
  const done = failed.length + succeeded.length;
  assert.deepEqual(endpointRow(a.url), { events: 'transaction.*', rate: `${Math.round((100 * succeeded.length) / done)} % of ${done}`, faults: '0' });
  assert.ok(failed.length > 0 && succeeded.length > 0, 'a rate between 0 and 100 %');
  assert.deepEqual(endpointRow(quiet.url), { events: 'invoice.*', rate: '—', faults: '2' }, 'no delivery yet; two fault rules');
});

// ---------------------------------------------------------------------------------------
// Requests

interface Shown {
  id: string;
  method: string;
  path: string;
  status: number;
}

function requestRows(text: string): Shown[] {
  const out: Shown[] = [];
  const re = /<tr data-request-id="([0-9a-f-]{36})"><td>[^]*?<\/td><td>([A-Z]+)<\/td>\s*<td><a href="[^"]+"><code class="path">([^<]*)<\/code><\/a><\/td>\s*<td><span class="status-\dxx">(\d+)<\/span>/g;
  for (const m of text.matchAll(re)) out.push({ id: m[1]!, method: m[2]!, path: m[3]!, status: Number(m[4]) });
  return out;
}

test('requests: each filter shows what it names and leaves the rest out', async () => {
  const box = await makeSandbox(s, 'Requests filters');
  const g = box.group_id;
  const api = `/api/v1/groups/${g}`;
  const sale = await s.call('POST', `${api}/transaction`, { key: box.keys.manage_transactions, body: saleBody(box.processor_id) });
  assert.equal(sale.status, 200, sale.text);
  const bad = await s.call('POST', `${api}/transaction`, { key: box.keys.manage_transactions, body: { type: 'sale' } });
  assert.equal(bad.status, 400, bad.text);
  const read = await s.call('GET', `${api}/events?limit=1`, { key: box.keys.manage_webhooks });
  assert.equal(read.status, 200, read.text);
  const ids = { sale: sale.headers.get('request-id')!, bad: bad.headers.get('request-id')!, read: read.headers.get('request-id')! };
  assert.ok(ids.sale && ids.bad && ids.read, 'every answer names its call');

  const base = `/dashboard/groups/${g}/requests`;
  const all = requestRows((await page(base)).text);
  for (const id of Object.values(ids)) assert.ok(all.some((r) => r.id === id), `unfiltered, the call ${id} is shown`);

  const fours = requestRows((await page(`${base}?status=4xx`)).text);
  assert.deepEqual(fours.map((r) => r.id), [ids.bad], '4xx: the bad sale only');
  assert.equal(fours[0]!.status, 400);
  const twos = requestRows((await page(`${base}?status=2xx`)).text);
  assert.ok(twos.some((r) => r.id === ids.sale) && !twos.some((r) => r.id === ids.bad), '2xx: the sale, not the bad one');
  assert.ok(twos.every((r) => r.status >= 200 && r.status < 300));

  const gets = requestRows((await page(`${base}?method=GET`)).text);
  assert.ok(gets.some((r) => r.id === ids.read), 'GET: the read');
  assert.ok(gets.every((r) => r.method === 'GET'), `GET shows GETs only: ${gets.map((r) => r.method).join(',')}`);
  assert.ok(!gets.some((r) => r.id === ids.sale || r.id === ids.bad));

  const exact = requestRows((await page(`${base}?path=${encodeURIComponent(`${api}/events`)}`)).text);
  assert.deepEqual(exact.map((r) => r.id), [ids.read], 'a path: the calls of that path only');
  const prefix = requestRows((await page(`${base}?path=${encodeURIComponent(`${api}/trans*`)}`)).text);
  assert.deepEqual(new Set(prefix.map((r) => r.id)), new Set([ids.sale, ids.bad]), 'a path prefix: the two sales, not the read');
  const both = requestRows((await page(`${base}?method=POST&status=2xx&path=${encodeURIComponent(`${api}/transaction`)}`)).text);
  assert.deepEqual(both.map((r) => r.id), [ids.sale], 'filters together');
  const none = await page(`${base}?method=DELETE`);
  assert.deepEqual(requestRows(none.text), []);
  assert.match(none.text, /No request in the journal matches these filters\./);
});

test('requests: pages of 50, newest first, "Older" to the rest with the filters kept; a page whose start is gone shows the newest and says so', async () => {
  const box = await makeSandbox(s, 'Requests pages');
  const g = box.group_id;
  // 60 refused sales (POSTs), 5 reads (GETs) among them.
  for (let i = 0; i < 65; i++) {
    const r =
      i % 13 === 6
        ? await s.call('GET', `/api/v1/groups/${g}/events?limit=1`, { key: box.keys.manage_webhooks })
        : await s.call('POST', `/api/v1/groups/${g}/transaction`, { key: box.keys.manage_transactions, body: { type: 'sale', n: i } });
    assert.ok(r.status === 200 || r.status === 400, r.text);
  }
  const base = `/dashboard/groups/${g}/requests`;
  const first = await page(base);
  const newest = requestRows(first.text);
  // The journal as the API lists it (oldest first), read after the pages: its own call is not among them.
  const journal = (await s.call('GET', `/api/v1/sandboxes/${g}/requests?limit=1000`, { headers: { authorization: ADMIN_TOKEN } })).body.data.items as Array<{ id: string; method: string }>;
  assert.ok(journal.length === 65, `the journal holds the 65 calls: ${journal.length}`);
  const expected = journal.map((r) => r.id).reverse();
  assert.deepEqual(newest.map((r) => r.id), expected.slice(0, 50), 'the newest 50, newest first');
  assert.match(first.text, /data-live-url=/, 'the first page is live');
  const older = link(first.text, 'next');
  assert.ok(older, 'an Older link');
  const second = await page(older);
  assert.deepEqual(requestRows(second.text).map((r) => r.id), expected.slice(50, 100), 'the next page: the calls before the first page’s last');
  assert.doesNotMatch(second.text, /data-live-url=/, 'an older page holds still');
  assert.equal(link(second.text, 'next'), undefined, 'no page after the oldest');
  assert.match(second.text, new RegExp(`<a href="${base}">Newest</a>`));

  // The POSTs (the journal reads above are GETs, journaled as they end: left out by the filter).
  const posts = journal.filter((r) => r.method === 'POST').map((r) => r.id).reverse();
  assert.equal(posts.length, 60);
  const fgFirst = await page(`${base}?method=POST`);
  assert.deepEqual(requestRows(fgFirst.text).map((r) => r.id), posts.slice(0, 50));
  const fgOlder = link(fgFirst.text, 'next');
  assert.ok(fgOlder?.includes('method=POST'), `Older keeps the filter: ${fgOlder}`);
  const fgSecond = await page(fgOlder!);
  assert.deepEqual(requestRows(fgSecond.text).map((r) => r.id), posts.slice(50, 60));
  assert.equal(link(fgSecond.text, 'next'), undefined);

  const gone = await page(`${base}?before=00000000-0000-4000-8000-000000000000`);
  assert.equal(gone.status, 200);
  assert.match(gone.text, /<p class="error" role="alert">That page began at a call the journal no longer holds/);
  assert.deepEqual(requestRows(gone.text).map((r) => r.id), expected.slice(0, 50), 'the newest instead');
});

// ---------------------------------------------------------------------------------------
// Object lists

test('transactions: a status filter shows the API’s page and leaves out the rest; Next and Previous page as the API does', async () => {
  const box = await makeSandbox(s, 'Transaction pages');
  const g = box.group_id;
  const api = `/api/v1/groups/${g}`;
  const made = async (type: 'sale' | 'auth') => {
    const r = await s.call('POST', `${api}/transaction`, { key: box.keys.manage_transactions, body: saleBody(box.processor_id, { type }) });
    assert.equal(r.status, 200, r.text);
    return r.body as { id: string; status: string };
  };
  const auths = [await made('auth'), await made('auth'), await made('auth')];
  const sales = [await made('sale'), await made('sale')];
  const status = auths[0]!.status;
  assert.ok(sales.every((x) => x.status !== status), `a sale is not ${status}`);

  const apiPage = async (offset: number) =>
    ((await s.call('GET', `${api}/processing/${box.linked_account_id}/transactions/reporting?type=table&statuses=${status}&limit=2&offset=${offset}`, { key: box.keys.view_transactions })).body.items as Array<{ id: string }>).map((r) => r.id);
  const ids = (text: string) => [...text.matchAll(/<td><a href="[^"]*\/objects\/transaction\/([^"]+)"><code class="id">/g)].map((m) => m[1]!);
  const statuses = (text: string) => [...text.matchAll(/<tr><td><a href="[^"]*\/objects\/transaction\/[^"]+"><code class="id">[^<]+<\/code><\/a><\/td><td>[^<]*<\/td><td>([^<]*)<\/td>/g)].map((m) => m[1]!);

  const url = `/dashboard/groups/${g}/transactions?linked_account_id=${box.linked_account_id}&statuses=${status}&limit=2`;
  const one = await page(url);
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(ids(one.text), await apiPage(0), 'the API’s first page');
  assert.ok(statuses(one.text).every((x) => x === status) && statuses(one.text).length === 2, `only ${status} rows`);
  for (const x of sales) assert.ok(!one.text.includes(x.id), 'a sale is left out');
  assert.equal(link(one.text, 'prev'), undefined, 'no Previous on the first page');
  const next = link(one.text, 'next');
  assert.ok(next?.includes('offset=2') && next.includes(`statuses=${status}`), `Next keeps the filter: ${next}`);
  const two = await page(next!);
  const second = await apiPage(2);
  assert.deepEqual(ids(two.text), second, 'the API’s second page');
  assert.ok(second.length >= 1);
  assert.ok(!ids(two.text).some((id) => ids(one.text).includes(id)), 'no row on both pages');
  for (const x of sales) assert.ok(!two.text.includes(x.id));
  const mine = new Set([...ids(one.text), ...ids(two.text)]);
  // The auths made here are the newest of their status: all on the first two pages.
  for (const x of auths) assert.ok(mine.has(x.id), `the auth ${x.id} is on a page`);
  const prev = link(two.text, 'prev');
  assert.ok(prev?.includes('offset=0'), `Previous: ${prev}`);
  assert.deepEqual(ids((await page(prev!)).text), ids(one.text), 'Previous goes back to the first page');
});

test('payment links: a status filter leaves out the others; Next and Previous page one link at a time', async () => {
  const box = await makeSandbox(s, 'Payment link pages');
  const g = box.group_id;
  const api = `/api/v1/groups/${g}/payment-links`;
  const key = box.keys.manage_transactions;
  const links: string[] = [];
  for (const description of ['First link', 'Second link', 'Third link']) {
    const r = await s.call('POST', api, { key, body: { amount: 2500, description } });
    assert.equal(r.status, 200, r.text);
    links.push(r.body.id);
  }
  const off = await s.call('POST', `${api}/${links[1]}/deactivate`, { key });
  assert.equal(off.status, 200, off.text);

  const base = `/dashboard/groups/${g}/payment-links`;
  const ids = (text: string) => [...text.matchAll(/\/objects\/payment_link\/([^"]+)"/g)].map((m) => m[1]!);
  const deactivated = await page(`${base}?status=deactivated`);
  assert.deepEqual(ids(deactivated.text), [links[1]], 'deactivated: that link only');

  const available = (await s.call('GET', `${api}?status=available&limit=100`, { key })).body.data.items.map((x: { id: string }) => x.id) as string[];
  assert.ok(available.includes(links[0]!) && available.includes(links[2]!) && !available.includes(links[1]!));
  const seen: string[] = [];
  let at: string | undefined = `${base}?status=available&limit=1`;
  const pages: string[] = [];
  while (at) {
    const p = await page(at);
    const shown = ids(p.text);
    assert.equal(shown.length, 1, 'one link a page');
    assert.match(p.text, new RegExp(`Rows ${seen.length + 1}–${seen.length + 1} of ${available.length}`));
    seen.push(shown[0]!);
    pages.push(at);
    at = link(p.text, 'next');
    assert.ok(seen.length <= available.length, 'the pages end');
  }
  assert.deepEqual(seen, available, 'Next walks the API’s list in its order, the deactivated link left out');
  const lastPage = await page(pages.at(-1)!);
  const back = link(lastPage.text, 'prev');
  assert.ok(back, 'Previous on the last page');
  assert.deepEqual(ids((await page(back)).text), [seen.at(-2)], 'Previous: the page before');
});
