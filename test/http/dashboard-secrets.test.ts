// No card number, CVV, API key or webhook secret on any dashboard page, over plain HTTP:
// a card tokenized with its number and CVV, a sale whose body carries the raw card (refused,
// but journaled), a sale paid with that card's token, a customer who stores the card, a
// webhook endpoint (its secret is in the answer that made it) and a sandbox's keys, and the
// number put by the client in a sale's order id and description and a customer's name; then
// the Requests list, every request's page, the transaction's, the customer's and the card's
// pages, the events page and the groups page show the card's last four at most.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { CARD_ADDRESS, cardTokenBody, saleBody } from '../helpers/bodies.js';
import { ADMIN_TOKEN, dashboardServer, makeSandbox, type DashboardSandbox, httpSession } from '../helpers/dashboard.js';

const NUMBER = '4111111111111111';
const CVV = '123';

let s: TestServer;
let box: DashboardSandbox;
let cookie: string;
let saleId: string;
let customerId: string;
let cardId: string;
let whsec: string;
before(async () => {
  s = await dashboardServer();
  box = await makeSandbox(s, 'Secrets sandbox');
  ({ cookie } = await httpSession(s));
  const g = `/api/v1/groups/${box.group_id}`;
  const k = box.keys;
  const mint = async () => {
    const t = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody(NUMBER, CVV) });
    assert.equal(t.status, 200, t.text);
    return t.body.token as string;
  };

  // The raw card in a sale's body: refused (a sale takes a token), and journaled.
  const raw = saleBody(box.processor_id);
  const refused = await s.call('POST', `${g}/transaction`, {
    key: k.manage_transactions,
    body: { ...raw, payment_details: { token: 'tok_visa', card: { number: NUMBER, cvv: CVV, expiration_month: 12, expiration_year: 2039 } } },
  });
  assert.equal(refused.status, 400, refused.text);

  // Paid with the card's token; the client also put the number in its free fields.
  const sale = await s.call('POST', `${g}/transaction`, {
    key: k.manage_transactions,
    body: { ...saleBody(box.processor_id, { token: await mint(), amount: 4567, orderId: `order-${NUMBER}` }), description: `card ${NUMBER}` },
  });
  assert.equal(sale.status, 200, sale.text);
  saleId = sale.body.id;

  const customer = await s.call('POST', `${g}/customers`, { key: k.manage_customers, body: { first_name: 'Carda', last_name: NUMBER } });
  assert.equal(customer.status, 200, customer.text);
  customerId = customer.body.id;
  const card = await s.call('POST', `${g}/processing/${box.linked_account_id}/customers/${customerId}/payment_methods/card`, {
    key: k.manage_customers,
    body: { token: await mint(), billing_address: CARD_ADDRESS },
  });
  assert.equal(card.status, 200, card.text);
  cardId = card.body.card_id;

  const endpoint = await s.call('POST', `${g}/webhook_endpoints`, { key: k.manage_webhooks, body: { url: 'http://127.0.0.1:9/hook', enabled_events: ['transaction.approved'] } });
  assert.equal(endpoint.status, 200, endpoint.text);
  whsec = JSON.stringify(endpoint.body).match(/whsec_[A-Za-z0-9+/=]+/)?.[0] ?? '';
  assert.ok(whsec, 'the endpoint is answered with its secret, once');
});
after(async () => {
  await s?.close();
});

const page = async (path: string) => {
  const r = await fetch(s.url + path, { headers: { cookie }, redirect: 'manual' });
  return { status: r.status, text: await r.text() };
};

/** The page's text with the HTML entities the template writes turned back (a value hidden by escaping is still shown). */
const decoded = (html: string) =>
  html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#x2F;/gi, '/').replace(/&amp;/g, '&');

function assertNoSecret(where: string, html: string): void {
  const text = decoded(html);
  assert.doesNotMatch(text, /4111[\s-]?1111[\s-]?1111[\s-]?1111/, `${where}: the full card number`);
  assert.doesNotMatch(text, /cvv[^a-z0-9]{0,12}123\b/i, `${where}: the CVV`);
  assert.doesNotMatch(text, /"(cvv|cvc|number)"\s*:\s*"?\d/i, `${where}: a card's number or CVV field with a value`);
  assert.doesNotMatch(text, /sk_test_[A-Za-z0-9]/, `${where}: an API key`);
  assert.doesNotMatch(text, /whsec_[A-Za-z0-9+/]/, `${where}: a webhook secret`);
  assert.ok(!text.includes(whsec.slice('whsec_'.length)), `${where}: the endpoint's secret`);
  for (const key of Object.values(box.keys)) assert.ok(!text.includes(key.slice(8)), `${where}: a sandbox key`);
  assert.ok(!text.includes(ADMIN_TOKEN), `${where}: the admin token`);
}

test('the Requests list and every request page show no card number, CVV, key or secret, and the card at most by its last four', async () => {
  const list = await page(`/dashboard/groups/${box.group_id}/requests`);
  assert.equal(list.status, 200);
  assertNoSecret('requests list', list.text);
  const ids = [...list.text.matchAll(/data-request-id="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
  assert.ok(ids.length >= 5, `the group's calls above are journaled (a tokenize call is no group's): ${ids.length}`);
  let refusedSeen = false;
  let endpointSeen = false;
  for (const id of ids) {
    const one = await page(`/dashboard/groups/${box.group_id}/requests/${id}`);
    assert.equal(one.status, 200, id);
    assertNoSecret(`request ${id}`, one.text);
    const text = decoded(one.text);
    // The refused sale: its body is shown, with the card's fields masked.
    if (/"expiration_year": 2039/.test(text) && /POST request/.test(text) && /"card":/.test(text)) {
      refusedSeen = true;
      assert.match(text, /"number": "\[redacted\]"/, 'the number is masked');
      assert.match(text, /"cvv": "\[redacted\]"/, 'the CVV is masked');
    }
    if (/webhook_endpoints/.test(text) && /enabled_events/.test(text)) endpointSeen = true;
  }
  assert.ok(refusedSeen, "the refused sale's page shows its body, masked");
  assert.ok(endpointSeen, "the webhook endpoint's call has a page (its answer held the secret)");
});

test("the transaction's, the customer's and the card's pages, the search and the events page show the last four and no more", async () => {
  for (const [where, path] of [
    ['transaction', `/dashboard/groups/${box.group_id}/objects/transaction/${saleId}`],
    ['customer', `/dashboard/groups/${box.group_id}/objects/customer/${customerId}`],
    ['card', `/dashboard/groups/${box.group_id}/objects/card/${cardId}`],
  ] as const) {
    const r = await page(path);
    assert.equal(r.status, 200, where);
    assertNoSecret(where, r.text);
    assert.match(decoded(r.text), /"last_four": "1111"/, `${where}: the card by its last four`);
  }
  // The number the client put in the order id, the description and the name is masked as the journal masks it.
  const t = decoded((await page(`/dashboard/groups/${box.group_id}/objects/transaction/${saleId}`)).text);
  assert.match(t, /"order_id": "order-\[redacted\]"/);
  assert.match(t, /"description": "card \[redacted\]"/);
  assert.match(decoded((await page(`/dashboard/groups/${box.group_id}/objects/customer/${customerId}`)).text), /"last_name": "\[redacted\]"/);
  for (const path of [
    `/dashboard/groups/${box.group_id}/events`,
    `/dashboard/groups/${box.group_id}/transactions`,
    `/dashboard/groups/${box.group_id}/customers`,
    `/dashboard/groups/${box.group_id}/faults`,
    '/dashboard',
    `/dashboard/search?q=${NUMBER}`,
    `/dashboard/search?q=${encodeURIComponent(box.keys.manage_transactions!)}`,
  ]) {
    const r = await page(path);
    assert.ok(r.status === 200 || (path.includes('search') && r.status === 404), `${path}: ${r.status}`);
    assertNoSecret(path, r.text);
  }
  const events = await page(`/dashboard/groups/${box.group_id}/events`);
  assert.match(events.text, new RegExp(saleId), 'the sale is on the events page');
  assert.match(events.text, /127\.0\.0\.1:9\/hook/, 'the endpoint is on the events page, without its secret');
  const miss = decoded((await page(`/dashboard/search?q=${NUMBER}`)).text);
  assert.match(miss, /has the id <code>\[redacted\]<\/code>/, 'a card number typed into the search box is masked on the answer');
  const list = decoded((await page(`/dashboard/groups/${box.group_id}/customers`)).text);
  assert.match(list, /Carda \[redacted\]/, "the customers list masks the number in the customer's name");
});
