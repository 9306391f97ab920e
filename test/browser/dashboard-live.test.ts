// The dashboard in headless Chromium, its live views and actions (the views, search, clock,
// faults and reports are in dashboard.test.ts; one file would outrun the runner's 5-minute
// budget a file when another browser suite runs beside it): an event's delivery attempts
// and Resend, Pause on the Requests view, a sale appearing live in it, a request's page;
// a webhook fault rule added in the page drops the next delivery and the page removes it;
// "Send again" sends a call again, and is offered disabled, with why, for a masked body; a
// long "Advance by" shows the catch-up's progress, refreshed in place until it has caught up.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { startTestServer } from '../helpers/server.js';
import { ADMIN_TOKEN, axeProblems, dashboardServer, makeSandbox, signedIn, type DashboardSandbox } from '../helpers/dashboard.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

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

test("an event's delivery attempts show on the events page, with the endpoint's success rate, and Resend sends it again", async () => {
  const b = await makeSandbox(s, 'Webhook sandbox');
  const receiver = await startReceiver(() => ({ status: 200, body: 'thanks from the receiver' }));
  try {
    const made = await s.call('POST', `/api/v1/groups/${b.group_id}/webhook_endpoints`, { key: b.keys.manage_webhooks, body: { url: receiver.url, enabled_events: ['transaction.approved'] } });
    assert.equal(made.status, 200, made.text);
    const endpoint = made.body.id as string;
    // Attempts are recorded once the receiver has answered: wait for the row through the API (bounded).
    const attempts = async (n: number) => {
      for (let i = 0; i < 200; i++) {
        const r = await s.call('GET', `/api/v1/groups/${b.group_id}/webhook_endpoints/${endpoint}/deliveries`, { key: b.keys.manage_webhooks });
        if ((r.body.data.items as unknown[]).length >= n) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.fail(`fewer than ${n} attempts recorded`);
    };
    const t = await sale(b);
    await receiver.waitFor(1);
    await attempts(1);
    const { context, page } = await signedIn(browser, s);
    await page.goto(`${s.url}/dashboard/groups/${b.group_id}/events`);
    const row = page.locator('#event-rows tr[data-event-type="transaction.approved"]', { hasText: t.id });
    assert.match((await row.textContent()) ?? '', /succeeded #1 → .*: 200, \d+ ms — thanks from the receiver/);
    assert.match((await page.getByRole('region', { name: 'Webhook endpoints' }).textContent()) ?? '', /100 % of 1/);
    await row.getByRole('button', { name: /^Resend transaction.approved/ }).click();
    await receiver.waitFor(2);
    await attempts(2);
    await page.reload();
    assert.equal(await row.locator('.status-succeeded').count(), 2);
    assert.equal(receiver.received[1]!.headers['webhook-id'], receiver.received[0]!.headers['webhook-id']);
    await context.close();
  } finally {
    await receiver.close();
  }
});

test('Pause holds the Requests view: a new call waits, named as a request, until Resume shows it', async () => {
  await sale(box); // a row to compare with, whatever ran before
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/requests`);
  await page.waitForSelector('html[data-live="ready"]');
  const first = () => page.locator('#request-rows tbody tr').first().getAttribute('data-request-id');
  const before = await first();
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByText('Paused: new requests are held until you resume.').waitFor();
  await sale(box);
  // The notice comes (the writer's 100 ms and the stream's 500 ms at most), and the rows stay as they were.
  await page.getByText('Paused: new requests are waiting.').waitFor({ timeout: 5000 });
  assert.equal(await first(), before, 'held while paused');
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.waitForFunction((seen) => document.querySelector('#request-rows tbody tr')?.getAttribute('data-request-id') !== seen, before, { timeout: 5000 });
  await context.close();
});

test('a sale made through the API appears in the open Requests view within 2 s without a reload', async () => {
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/requests`);
  await page.waitForSelector('html[data-live="ready"]');
  const before = await page.locator('#request-rows tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-request-id')));
  let navigations = 0;
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) navigations++;
  });
  const t = await sale(box);
  // The journal's writer holds a call up to 100 ms; the stream's notice waits up to 500 ms more.
  const row = page.locator('#request-rows tbody tr').first();
  await page.waitForFunction(
    ({ seen, path }) => {
      const first = document.querySelector('#request-rows tbody tr');
      return !!first && !seen.includes(first.getAttribute('data-request-id')) && (first.textContent ?? '').includes(path);
    },
    { seen: before, path: `/api/v1/groups/${box.group_id}/transaction` },
    { timeout: 2000 },
  );
  assert.equal(navigations, 0, 'no reload');
  await row.getByRole('link').click();
  await page.waitForURL(`**/groups/${box.group_id}/requests/*`);
  assert.match((await page.locator('pre.json').nth(1).textContent()) ?? '', new RegExp(`"id": "${t.id}"`));
  await context.close();
});

test("a request's page shows both bodies and the event it caused, with no serious axe violation", async () => {
  const t = await sale(box);
  const { context, page } = await signedIn(browser, s, { width: 390, height: 844 }, { bypassCSP: true });
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/requests?method=POST`);
  await page.locator('#request-rows tbody tr').first().getByRole('link').click();
  await page.waitForURL(`**/groups/${box.group_id}/requests/*`);
  await page.getByRole('heading', { name: 'Request body' }).waitFor();
  assert.match((await page.locator('pre.json').first().textContent()) ?? '', new RegExp(`"processor_id": "${box.processor_id}"`));
  assert.match((await page.locator('pre.json').nth(1).textContent()) ?? '', new RegExp(`"id": "${t.id}"`));
  await page.getByRole('link', { name: 'transaction.approved' }).waitFor();
  assert.match((await page.locator('pre.curl').textContent()) ?? '', /Authorization: \$PAYCTL_KEY/);
  assert.deepEqual(await axeProblems(page), []);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `the request page scrolls sideways by ${wide}px`);
  await context.close();
});

test('a webhook fault rule added in the page drops the next delivery, shows in the API’s list, and the page removes it', async () => {
  const b = await makeSandbox(s, 'Webhook fault sandbox');
  const receiver = await startReceiver();
  try {
    const made = await s.call('POST', `/api/v1/groups/${b.group_id}/webhook_endpoints`, { key: b.keys.manage_webhooks, body: { url: receiver.url, enabled_events: ['transaction.approved'] } });
    assert.equal(made.status, 200, made.text);
    const endpoint = made.body.id as string;
    const rulesPath = `/api/v1/groups/${b.group_id}/webhook_endpoints/${endpoint}/faults`;
    const { context, page } = await signedIn(browser, s, undefined, { bypassCSP: true });
    await page.goto(`${s.url}/dashboard/groups/${b.group_id}/faults`);
    const form = page.locator('form[action$="/faults/webhook"]');
    await form.getByLabel('Endpoint').selectOption(endpoint);
    await form.getByLabel('Action').selectOption('drop');
    await form.getByLabel('first', { exact: true }).fill('1');
    await form.getByRole('button', { name: 'Add webhook rule' }).click();
    await page.getByRole('button', { name: /^Remove webhook rule / }).waitFor();
    const listed = await s.call('GET', rulesPath, { key: b.keys.manage_webhooks });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.data.map((r: { action: string; first: number }) => [r.action, r.first]), [['drop', 1]]);
    assert.deepEqual(await axeProblems(page), [], 'the page with both forms and a webhook rule');

    // The next delivery is dropped (no retry runs: the test server's tick is off), recorded with its fault.
    const t = await sale(b);
    let attempts: Array<{ event_id: string; fault: string | null; status: string }> = [];
    for (let i = 0; i < 200 && attempts.length === 0; i++) {
      const r = await s.call('GET', `/api/v1/groups/${b.group_id}/webhook_endpoints/${endpoint}/deliveries`, { key: b.keys.manage_webhooks });
      attempts = r.body.data.items;
      if (attempts.length === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(attempts.length, 1, `one attempt for ${t.id}`);
    assert.match(attempts[0]!.fault ?? '', /drop/);
    assert.equal(receiver.received.length, 0, 'nothing reached the receiver');

    await page.reload();
    await page.getByRole('button', { name: /^Remove webhook rule / }).click();
    await page.getByText('No webhook fault rule').waitFor();
    assert.deepEqual((await s.call('GET', rulesPath, { key: b.keys.manage_webhooks })).body.data, []);
    await context.close();
  } finally {
    await receiver.close();
  }
});

test('"Send again" on a request’s page sends the call again and opens the new call’s page', async () => {
  const made = await s.call('POST', `/api/v1/groups/${box.group_id}/customers`, { key: box.keys.manage_customers, body: { first_name: 'Twice', last_name: 'Made' } });
  assert.equal(made.status, 200, made.text);
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/requests?method=POST&path=${encodeURIComponent(`/api/v1/groups/${box.group_id}/customers`)}`);
  await page.locator('#request-rows tbody tr').first().getByRole('link').click();
  await page.waitForURL(`**/groups/${box.group_id}/requests/*`);
  const first = page.url();
  await page.getByRole('button', { name: 'Send again' }).click();
  await page.getByText(/^Sent again from request [0-9a-f-]{36}: answered 200\.$/).waitFor();
  assert.notEqual(page.url(), first, 'the new call’s page');
  const answer = JSON.parse((await page.locator('pre.json').nth(1).textContent()) ?? '{}') as { id: string; first_name: string };
  assert.equal(answer.first_name, 'Twice');
  assert.notEqual(answer.id, made.body.id, 'a second customer');
  await context.close();
});

test('a call whose body the journal masked offers "Send again" disabled, saying why', async () => {
  const masked = await s.call('POST', `/api/v1/groups/${box.group_id}/transaction`, { key: box.keys.manage_transactions, body: saleBody(box.processor_id, { orderId: '4111 1111 1111 1111' }) });
  assert.equal(masked.status, 200, masked.text);
  const { context, page } = await signedIn(browser, s, undefined, { bypassCSP: true });
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/requests?method=POST&path=${encodeURIComponent(`/api/v1/groups/${box.group_id}/transaction`)}`);
  await page.locator('#request-rows tbody tr').first().getByRole('link').click();
  await page.waitForURL(`**/groups/${box.group_id}/requests/*`);
  const button = page.getByRole('button', { name: 'Send again' });
  assert.equal(await button.isDisabled(), true);
  assert.match((await page.locator('#send-again-why').textContent()) ?? '', /cannot be sent again: its body’s order_id was masked by the journal/);
  assert.deepEqual(await axeProblems(page), []);
  await context.close();
});

test('a long "Advance by" shows the catch-up’s progress in the clock panel, refreshed without a reload until it has caught up', { timeout: 300_000 }, async () => {
  // A server whose clock route answers at once (budget 0): the catch-up goes on after the move's answer.
  const quick = await startTestServer({ adminToken: ADMIN_TOKEN, env: { ...process.env, PAYCTL_CLOCK_ANSWER_MS: '0' } });
  try {
    const b = await makeSandbox(quick, 'Catch-up sandbox');
    const key = b.keys.manage_transactions!;
    const recurring = `/api/v1/groups/${b.group_id}/processing/${b.linked_account_id}/recurring`;
    const customer = await quick.call('POST', `/api/v1/groups/${b.group_id}/customers`, { key: b.keys.manage_customers, body: { first_name: 'Daily', last_name: 'Payer' } });
    const plan = await quick.call('POST', `${recurring}/plans`, { key, body: { name: 'Daily', amount: 700, billing_cycle: 'daily', duration: 0 } });
    const sub = await quick.call('POST', `${recurring}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: customer.body.id, payment_details: { token: 'tok_visa' } } });
    assert.equal(sub.status, 200, sub.text);
    const { context, page } = await signedIn(browser, quick);
    await page.goto(`${quick.url}/dashboard/groups/${b.group_id}/faults`);
    await page.getByLabel('Advance by').fill('730d');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    await page.waitForURL(`**/groups/${b.group_id}/faults`);
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    await page.getByRole('heading', { name: 'What the last move ran' }).waitFor();
    await page.getByRole('progressbar', { name: 'Catch-up progress' }).waitFor({ timeout: 20_000 });
    assert.match((await page.locator('.catch-up [role="status"]').textContent()) ?? '', /Catching up \(running.*\) — \d+ charges and \d+ settlements still due\./);
    await page.getByText('Nothing is being caught up.').waitFor({ timeout: 240_000 });
    assert.equal(navigations, 0, 'the panel refreshed itself, the page was not reloaded');
    const clock = await quick.call('GET', `/api/v1/sandboxes/${b.group_id}/clock`, { headers: { authorization: ADMIN_TOKEN } });
    assert.equal(clock.body.catch_up.status, 'caught_up');
    await context.close();
  } finally {
    await quick.close();
  }
});
