// The dashboard in headless Chromium: every view loads (and axe-core finds no serious or
// critical violation on it, at a laptop's and a phone's size), search by id opens a
// transaction with its events, the events page is live, "+1 day" in the clock panel
// settles a pending sale and its transaction.settled event appears, a fault rule added
// in the page makes the next API call fail as the rule says, a hostile customer name is
// text, the report's numbers are `payctl report --summary --json`'s, a sandbox is made, forked,
// exported and dropped, and a recording is made in the page (the live views and the actions
// on calls and events: dashboard-live.test.ts).
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { runCli } from '../helpers/cli.js';
import { axeProblems, dashboardServer, makeSandbox, signedIn, type DashboardSandbox } from '../helpers/dashboard.js';

let s: TestServer;
let browser: Browser;
let box: DashboardSandbox;
before(async () => {
  s = await dashboardServer();
  browser = await launchBrowser();
  box = await makeSandbox(s, 'Browser sandbox');
});
after(async () => {
  await browser?.close();
  await s?.close();
});

const sale = async (b: DashboardSandbox) => {
  const r = await s.call('POST', `/api/v1/groups/${b.group_id}/transaction`, { key: b.keys.manage_transactions, body: saleBody(b.processor_id) });
  assert.equal(r.status, 200, r.text);
  return r.body as { id: string; status: string };
};

const views = (g: string) => [
  '/dashboard',
  ...['requests', 'transactions', 'customers', 'subscriptions', 'invoices', 'payment-links', 'events', 'faults', 'reports', 'recording'].map((v) => `/dashboard/groups/${g}/${v}`),
];

test('the token link signs in and leaves a URL without the token', async () => {
  const { context, page } = await signedIn(browser, s);
  assert.equal(new URL(page.url()).search, '');
  assert.equal(new URL(page.url()).pathname, '/dashboard');
  await page.getByRole('link', { name: 'Browser sandbox', exact: true }).waitFor();
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'payctl_dashboard');
  assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
  assert.equal(session?.sameSite, 'Strict');
  await context.close();
});

test('every view loads at 1280×800 and 390×844, with a search box and no serious or critical axe violation', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { context, page } = await signedIn(browser, s, viewport, { bypassCSP: true });
    for (const url of views(box.group_id)) {
      const res = await page.goto(s.url + url);
      assert.equal(res?.status(), 200, url);
      await page.getByRole('searchbox', { name: 'Search by id' }).waitFor();
      assert.deepEqual(await axeProblems(page), [], `${url} at ${viewport.width}px`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(wide <= 0, `${url} at ${viewport.width}px scrolls sideways by ${wide}px`);
    }
    await context.close();
  }
});

test('every page is served with its Content-Security-Policy and loads no script from elsewhere', async () => {
  const { context, page } = await signedIn(browser, s);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const res = await page.goto(`${s.url}/dashboard/groups/${box.group_id}/events`);
  assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
  assert.deepEqual(requested.filter((u) => !u.startsWith(s.url)), []);
  assert.ok(requested.some((u) => u.endsWith('/dashboard/assets/htmx.min.js')));
  await context.close();
});

test('search by a transaction id opens it with its events', async () => {
  const t = await sale(box);
  const { context, page } = await signedIn(browser, s);
  await page.getByRole('searchbox', { name: 'Search by id' }).fill(t.id);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(`**/objects/transaction/${t.id}`);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Transaction');
  await page.getByRole('link', { name: 'transaction.approved' }).waitFor();
  assert.match((await page.locator('pre.json').textContent()) ?? '', new RegExp(`"id": "${t.id}"`));
  await context.close();
});

async function eventRow(page: Page, type: string, objectId: string) {
  return page.locator(`#event-rows tr[data-event-type="${type}"]`, { hasText: objectId });
}

test('the events page is live, and "+1 day" settles a pending sale whose transaction.settled event appears', async () => {
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/events`);
  await page.waitForSelector('html[data-live="ready"]');
  const t = await sale(box);
  assert.equal(t.status, 'pending');
  // No reload: the stream tells the page, htmx fetches the rows.
  await (await eventRow(page, 'transaction.approved', t.id)).waitFor({ timeout: 5000 });
  await page.getByRole('button', { name: '+1 day' }).click();
  await page.waitForURL(`**/groups/${box.group_id}/events`);
  await (await eventRow(page, 'transaction.settled', t.id)).waitFor();
  assert.ok(Number(await page.locator('[data-work="transactions_settled"], [data-work]').first().textContent()) > 0, 'the panel says what the move ran');
  const after = await s.call('GET', `/api/v1/groups/${box.group_id}/transaction/${t.id}`, { key: box.keys.manage_transactions });
  assert.equal(after.body.status, 'settled');
  await context.close();
});

test('a fault rule added in the page makes the next API call fail as the rule says', async () => {
  const b = await makeSandbox(s, 'Fault sandbox');
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${b.group_id}/faults`);
  await page.getByLabel('Operation').selectOption('sale');
  await page.getByLabel('Action').selectOption('error');
  await page.getByLabel('status', { exact: true }).fill('503');
  await page.getByLabel('first', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByRole('button', { name: /^Remove rule / }).waitFor();
  const r = await s.call('POST', `/api/v1/groups/${b.group_id}/transaction`, { key: b.keys.manage_transactions, body: saleBody(b.processor_id) });
  assert.equal(r.status, 503, r.text);
  assert.match(r.headers.get('payctl-fault') ?? '', /error/);
  // first=1: the call after it goes through.
  assert.equal((await sale(b)).status, 'pending');
  await page.getByRole('button', { name: /^Remove rule / }).click();
  await page.getByText('No fault rule').waitFor();
  await context.close();
});

test('a customer named <img src=x onerror=alert(1)> shows as text', async () => {
  const name = '<img src=x onerror=alert(1)>';
  const made = await s.call('POST', `/api/v1/groups/${box.group_id}/customers`, { key: box.keys.manage_customers, body: { first_name: name, last_name: 'Mallory' } });
  assert.equal(made.status, 200, made.text);
  const { context, page } = await signedIn(browser, s);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/customers`);
  await page.getByRole('cell', { name: `${name} Mallory` }).waitFor();
  assert.equal(await page.locator('main img').count(), 0);
  await page.goto(`${s.url}/dashboard/search?q=${made.body.id}`);
  assert.match((await page.locator('pre.json').textContent()) ?? '', /<img src=x onerror=alert\(1\)>/);
  assert.equal(await page.locator('main img').count(), 0);
  assert.deepEqual(dialogs, []);
  await context.close();
});

test('a POST without the CSRF token is refused, even from the signed-in page', async () => {
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/faults`);
  const status = await page.evaluate(async (url) => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'operation=sale&action=error&status=503' });
    return r.status;
  }, `${s.url}/dashboard/groups/${box.group_id}/faults`);
  assert.equal(status, 403);
  const rules = await s.call('GET', `/api/v1/sandboxes/${box.group_id}/faults`, { headers: { authorization: 'padm_dashboardTestToken000000000000000000' } });
  assert.deepEqual(rules.body.data, []);
  await context.close();
});

test("the report's numbers are payctl report --summary --json's for the same filters", async () => {
  const { context, page } = await signedIn(browser, s);
  const start = '2020-01-01';
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/reports?start=${start}&statuses=pending,settled`);
  const cli = await runCli(['report', '--summary', '--json', '--group', box.group_id, '--start', start, '--status', 'pending', '--status', 'settled'], { db: s.dbPath });
  assert.equal(cli.code, 0, cli.stderr);
  const want = JSON.parse(cli.stdout) as Record<string, unknown> & { total_count: number; total_amount: number };
  assert.ok(want.total_count > 0);
  assert.equal(Number(await page.locator('[data-total-count]').textContent()), want.total_count);
  assert.equal(await page.locator('[data-total-amount]').textContent(), String(want.total_amount));
  for (const dim of ['day', 'status', 'brand', 'payment_method', 'source']) {
    const shown = await page.locator(`table[data-dimension="${dim}"] tbody tr`).evaluateAll((rows) =>
      rows.map((r) => ({ key: r.querySelector('[data-key]')!.textContent, count: Number(r.querySelector('[data-count]')!.textContent), amount: r.querySelector('[data-amount]')!.textContent })),
    );
    const expected = (want[dim] as Array<{ key: string; count: number; amount: number }>).map((b) => ({ key: b.key, count: b.count, amount: String(b.amount) }));
    assert.deepEqual(shown, expected, dim);
    assert.equal(await page.locator(`#by-${dim} ~ .chart-and-numbers svg, section:has(#by-${dim}) svg`).count() > 0 || expected.length === 0, true, `${dim} has a chart`);
  }
  await context.close();
});

test('a sandbox is created with the demo data, forked, exported and dropped after a confirmation', async () => {
  const { context, page } = await signedIn(browser, s);
  await page.getByLabel('Name').fill('Made in the page');
  await page.getByRole('button', { name: 'Create sandbox' }).click();
  await page.getByRole('status').filter({ hasText: 'Created sandbox Made in the page' }).waitFor();
  await page.getByRole('button', { name: 'Fork Made in the page' }).click();
  await page.getByRole('status').filter({ hasText: 'Forked into Made in the page (fork)' }).waitFor();
  const row = page.getByRole('row', { name: /^Made in the page \(fork\)/ });
  assert.ok(Number(await row.getByRole('cell').nth(3).textContent()) > 0, 'the fork has the demo transactions');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export Made in the page (fork)' }).click()]);
  assert.match(download.suggestedFilename(), /^sandbox-.+\.jsonl$/);
  await page.getByRole('link', { name: 'Drop Made in the page (fork)' }).click();
  await page.getByRole('heading', { name: 'Drop Made in the page (fork)?' }).waitFor();
  await page.getByRole('button', { name: 'Drop this sandbox' }).click();
  await page.getByRole('status').filter({ hasText: 'Dropped sandbox' }).waitFor();
  assert.equal(await page.getByRole('row', { name: /^Made in the page \(fork\)/ }).count(), 0);
  await context.close();
});

test('recording: start in the page, a call is recorded, stop, download the scenario file', async () => {
  const b = await makeSandbox(s, 'Recorded sandbox');
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${b.group_id}/recording`);
  await page.getByRole('button', { name: 'Start recording' }).click();
  // The POST's answer first: a reload while it is on the way would cancel it.
  await page.getByRole('button', { name: 'Stop recording' }).waitFor();
  await sale(b);
  await page.reload();
  await page.getByText('1 calls recorded').waitFor();
  await page.getByRole('button', { name: 'Stop recording' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the scenario file' }).click()]);
  assert.match(download.suggestedFilename(), /\.yaml$/);
  const { readFile } = await import('node:fs/promises');
  const text = await readFile((await download.path())!, 'utf8');
  assert.match(text, /\/transaction/);
  await context.close();
});
