// Search by id in headless Chromium, for every kind the search box promises: a transaction,
// customer, card, plan, subscription, product, invoice, partner, payment link, event and
// request, each made through the API, opens its page showing that object (its id and
// something only it has) and its history (the events about it); a few are searched by
// keyboard in the search box, the rest by `/dashboard/search?q=`. An unknown id is a 404
// page that says so. Then axe-core on the object pages, the search page (a hit and a miss)
// and the drop confirmation, at a laptop's and a phone's size; and the search box and the
// group navigation reached by Tab alone. (The other views: dashboard.test.ts and
// dashboard-live.test.ts; a file of its own keeps each within the runner's budget.)
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { CARD_ADDRESS, cardTokenBody, saleBody } from '../helpers/bodies.js';
import { axeProblems, dashboardServer, makeSandbox, signedIn, type DashboardSandbox } from '../helpers/dashboard.js';

let s: TestServer;
let browser: Browser;
let box: DashboardSandbox;

/** One object of each kind: its id, text only its page shows, and an event type of its history (none: it has none). */
interface Made {
  kind: string;
  label: string;
  id: string;
  shows: string;
  history?: string;
}
const made: Record<string, Made> = {};

async function post(path: string, key: string | undefined, body: unknown) {
  const r = await s.call('POST', path, { ...(key ? { key } : {}), body });
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r;
}

before(async () => {
  s = await dashboardServer();
  browser = await launchBrowser();
  box = await makeSandbox(s, 'Search sandbox');
  const g = `/api/v1/groups/${box.group_id}`;
  const account = `${g}/processing/${box.linked_account_id}`;
  const k = box.keys;

  const customer = (await post(`${g}/customers`, k.manage_customers, { first_name: 'Sasha', last_name: 'Findable', email: 'sasha@search.test' })).body;
  made.customer = { kind: 'customer', label: 'Customer', id: customer.id, shows: 'sasha@search.test', history: 'customer.created' };

  const token = (await post('/api/v1/tokens', undefined, cardTokenBody('5555555555554444', '321'))).body.token as string;
  const card = (await post(`${account}/customers/${customer.id}/payment_methods/card`, k.manage_customers, { token, billing_address: CARD_ADDRESS })).body;
  made.card = { kind: 'card', label: 'Card', id: card.card_id, shows: '"last_four": "4444"', history: 'card.added' };

  const saleReply = await post(`${g}/transaction`, k.manage_transactions, saleBody(box.processor_id, { amount: 4321, orderId: 'search-order-1' }));
  const sale = saleReply.body;
  made.transaction = { kind: 'transaction', label: 'Transaction', id: sale.id, shows: '"requested_amount": 4321', history: 'transaction.approved' };
  const requestId = saleReply.headers.get('request-id');
  assert.ok(requestId, 'the sale answer names its request');
  made.request = { kind: 'request', label: 'POST request', id: requestId, shows: 'search-order-1' };

  const plan = (await post(`${account}/recurring/plans`, k.manage_transactions, { name: 'Searchable Gold', amount: 3100, billing_cycle: 'monthly', duration: '12', tax: 200 })).body;
  made.plan = { kind: 'plan', label: 'Plan', id: plan.id, shows: 'Searchable Gold', history: 'plan.created' };

  const sub = (await post(`${account}/recurring/subscription`, k.manage_transactions, { plan_id: plan.id, customer_id: customer.id, card_id: card.card_id })).body;
  made.subscription = { kind: 'subscription', label: 'Subscription', id: sub.id, shows: `"plan_id": "${plan.id}"`, history: 'subscription.created' };

  const product = (await post(`${g}/products`, k.manage_products, { name: 'Searchable Widget', description: 'found by its id', amount: 1250, unit_of_measure: 'pc' })).body;
  made.product = { kind: 'product', label: 'Product', id: product.id, shows: 'Searchable Widget', history: 'product.created' };

  const partner = (
    await post(`${g}/partners`, k.manage_partners, {
      company: 'Findable Partners Ltd', first_name: 'Ann', last_name: 'Lee', email: 'ann@findable.test', line_1: '1 Main St', city: 'Austin', subdivision: 'TX', postal_code: '78701', country: 'US',
    })
  ).body;
  made.partner = { kind: 'partner', label: 'Partner', id: partner.id, shows: 'Findable Partners Ltd' };

  const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const invoice = (
    await post(`${g}/invoices`, k.manage_invoices, {
      partner_id: partner.id, due_date: due, processor_id: box.processor_id, card_enabled: true, ach_enabled: false, products: [{ product_id: product.id, quantity: 3 }],
    })
  ).body;
  made.invoice = { kind: 'invoice', label: 'Invoice', id: invoice.id, shows: `"invoice_number": "${invoice.invoice_number}"`, history: 'invoice.created' };

  const link = (await post(`${g}/payment-links`, k.manage_transactions, { amount: 2750, description: 'Findable concert ticket' })).body;
  made.payment_link = { kind: 'payment_link', label: 'Payment link', id: link.id, shows: 'Findable concert ticket', history: 'payment_link.created' };

  const events = await s.call('GET', `${g}/events?types=transaction.approved`, { key: k.manage_transactions });
  assert.equal(events.status, 200, events.text);
  const approved = (events.body.data.items as Array<{ id: string; data: { object: { id: string } } }>).find((e) => e.data.object.id === sale.id);
  assert.ok(approved, 'the sale has its transaction.approved event');
  made.event = { kind: 'event', label: 'Event', id: approved.id, shows: 'transaction.approved' };
});
after(async () => {
  await browser?.close();
  await s?.close();
});

const objectPath = (m: Made) => (m.kind === 'request' ? `/groups/${box.group_id}/requests/${m.id}` : `/groups/${box.group_id}/objects/${m.kind}/${m.id}`);

/** The page shows the object: its kind as the heading, its id, what only it has, and its history. */
async function assertShows(page: Page, m: Made): Promise<void> {
  await page.waitForURL(`**/dashboard${objectPath(m)}`);
  const heading = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  assert.ok(heading.startsWith(m.label), `${m.kind}: the heading is ${heading}`);
  const main = (await page.locator('main').textContent()) ?? '';
  assert.ok(main.includes(m.id), `${m.kind}: the page names ${m.id}`);
  if (m.kind === 'request') {
    assert.ok(main.includes(m.shows), `request: its body (${m.shows}) is shown`);
    return;
  }
  const json = (await page.locator('pre.json').last().textContent()) ?? '';
  assert.ok(json.includes(m.shows), `${m.kind}: the object as the API answers it shows ${m.shows}`);
  if (m.kind !== 'card') assert.ok(json.includes(`"id": "${m.id}"`), `${m.kind}: the object shown is the one with that id`);
  if (m.history) {
    const history = page.getByRole('region', { name: 'History' });
    assert.match((await history.textContent()) ?? '', new RegExp(m.history.replace('.', '\\.')), `${m.kind}: its history has ${m.history}`);
  }
}

test('every kind opens its page from /dashboard/search?q=ID, with the object and its history', async () => {
  const { context, page } = await signedIn(browser, s);
  for (const m of Object.values(made)) {
    // Searched from outside any group: the search looks in every group.
    const res = await page.goto(`${s.url}/dashboard/search?q=${encodeURIComponent(m.id)}`);
    assert.equal(res?.status(), 200, `${m.kind} ${m.id}`);
    await assertShows(page, m);
  }
  assert.equal(Object.keys(made).length, 11, 'every kind of the search box');
  await context.close();
});

test('the search box, by keyboard: a card, a plan, a subscription, an invoice, an event and a partner open their pages', async () => {
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/transactions`);
  for (const kind of ['card', 'plan', 'subscription', 'invoice', 'event', 'partner']) {
    const m = made[kind]!;
    await page.getByRole('searchbox', { name: 'Search by id' }).focus();
    await page.keyboard.type(m.id);
    await page.keyboard.press('Enter');
    await assertShows(page, m);
  }
  await context.close();
});

test("a card's event links to the card: in the events list and on the event's page", async () => {
  const card = made.card!;
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/events`);
  const row = page.locator('#event-rows tr[data-event-type="card.added"]', { hasText: card.id });
  await row.getByRole('link', { name: card.id }).click();
  await assertShows(page, card);
  await page.getByRole('region', { name: 'History' }).getByRole('link', { name: 'card.added' }).click();
  await page.getByRole('heading', { level: 1, name: 'Event' }).waitFor();
  const related = page.getByRole('region', { name: 'Related' });
  assert.equal(await related.getByRole('link', { name: card.id }).count(), 1, 'the card is named once among the related objects');
  await related.getByRole('link', { name: card.id }).click();
  await page.waitForURL(`**/objects/card/${card.id}`);
  await context.close();
});

test("an object's page links to the objects it names: a subscription to its plan and customer; an invoice to its partner and product", async () => {
  const { context, page } = await signedIn(browser, s);
  const links = async (m: Made) => {
    await page.goto(`${s.url}/dashboard${objectPath(m)}`);
    return page.getByRole('region', { name: 'Related' }).getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  };
  const sub = await links(made.subscription!);
  for (const k of ['plan', 'customer']) assert.ok(sub.includes(`/dashboard${objectPath(made[k]!)}`), `the subscription links to its ${k}: ${sub.join(' ')}`);
  const inv = await links(made.invoice!);
  for (const k of ['partner', 'product']) assert.ok(inv.includes(`/dashboard${objectPath(made[k]!)}`), `the invoice links to its ${k}: ${inv.join(' ')}`);
  await page.getByRole('region', { name: 'Related' }).getByRole('link', { name: made.partner!.id }).click();
  await assertShows(page, made.partner!);
  await context.close();
});

test('an id of nothing is a 404 search page that says so, with the search box to try again', async () => {
  const { context, page } = await signedIn(browser, s);
  const res = await page.goto(`${s.url}/dashboard/search?q=00000000-0000-4000-8000-00000000dead`);
  assert.equal(res?.status(), 404);
  await page.getByRole('status').filter({ hasText: 'has the id 00000000-0000-4000-8000-00000000dead' }).waitFor();
  await page.getByRole('searchbox', { name: 'Search by id' }).waitFor();
  await context.close();
});

test('axe: object pages, the search page (a hit and a miss) and the drop confirmation, at 1280×800 and 390×844', async () => {
  const urls = [
    ...['transaction', 'customer', 'card', 'subscription', 'invoice', 'payment_link', 'event'].map((k) => `/dashboard${objectPath(made[k]!)}`),
    `/dashboard${objectPath(made.request!)}`,
    `/dashboard/search?q=${made.product!.id}`,
    '/dashboard/search?q=no-such-id',
    '/dashboard/search',
    `/dashboard/groups/${box.group_id}/drop`,
  ];
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { context, page } = await signedIn(browser, s, viewport, { bypassCSP: true });
    for (const url of urls) {
      const res = await page.goto(s.url + url);
      assert.ok(res?.status() === 200 || (url.includes('no-such-id') && res?.status() === 404), `${url}: ${res?.status()}`);
      await page.getByRole('searchbox', { name: 'Search by id' }).waitFor();
      assert.deepEqual(await axeProblems(page), [], `${url} at ${viewport.width}px`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(wide <= 0, `${url} at ${viewport.width}px scrolls sideways by ${wide}px`);
    }
    // The drop confirmation is that page: it names the sandbox and asks before dropping.
    await page.goto(`${s.url}/dashboard/groups/${box.group_id}/drop`);
    await page.getByRole('heading', { name: 'Drop Search sandbox?' }).waitFor();
    await page.getByRole('button', { name: 'Drop this sandbox' }).waitFor();
    await context.close();
  }
});

/** What has the focus: its role-ish description. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e) return { tag: '', label: '', nav: '', name: '' };
    const nav = e.closest('nav')?.getAttribute('aria-label') ?? '';
    const label = e.id ? (document.querySelector(`label[for="${e.id}"]`)?.textContent ?? '') : '';
    return { tag: e.tagName.toLowerCase(), label, nav, name: (e.textContent ?? '').trim() };
  });

test('by keyboard alone: Tab reaches the search box and the group navigation, Enter searches', async () => {
  const { context, page } = await signedIn(browser, s);
  await page.goto(`${s.url}/dashboard/groups/${box.group_id}/events`);
  // From the top of the page, Tab until the search box has the focus.
  let presses = 0;
  while ((await focused(page)).label !== 'Search by id') {
    assert.ok(++presses <= 10, 'the search box is among the first ten stops');
    await page.keyboard.press('Tab');
  }
  // On to the group's navigation, every page of it a stop.
  const navStops: string[] = [];
  for (let i = 0; i < 40 && navStops.length < 3; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.nav === 'Group pages' && f.tag === 'a') navStops.push(f.name);
  }
  assert.ok(navStops.includes('Transactions') || navStops.includes('Requests'), `the group navigation is reached by Tab: ${navStops.join(', ')}`);
  // Enter on a navigation link follows it.
  while ((await focused(page)).name !== 'Customers') {
    assert.ok(++presses <= 60, 'Customers is a stop of the navigation');
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/groups/${box.group_id}/customers`);
  // On the new page, Tab to the search box, an id typed and Enter: the object opens.
  presses = 0;
  while ((await focused(page)).label !== 'Search by id') {
    assert.ok(++presses <= 10, 'the search box is among the first ten stops');
    await page.keyboard.press('Tab');
  }
  await page.keyboard.type(made.transaction!.id);
  await page.keyboard.press('Enter');
  await assertShows(page, made.transaction!);
  await context.close();
});
