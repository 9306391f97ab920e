// The public invoice page as served (HTML, headers, escaping, which payment options it
// offers). Paying it in a real browser: test/browser/invoice-page.test.ts.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let partnerId: string;
let productId: string;
before(async () => {
  s = await startTestServer();
  const partner = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/partners`, {
    key: s.demo.keys.manage_partners,
    body: {
      company: '<script>alert(1)</script> & Co', first_name: 'Ann', last_name: 'O"Lee', email: 'ann@acme.test', line_1: '1 Main St',
      city: 'Austin', subdivision: 'TX', postal_code: '78701', country: 'US',
    },
  });
  partnerId = partner.body.id;
  const product = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/products`, {
    key: s.demo.keys.manage_products,
    body: { name: 'Tea <b>bold</b>', description: "Earl Grey 'loose'", amount: 1234, included_tax_amount: 100, unit_of_measure: 'pc' },
  });
  productId = product.body.id;
});
after(() => s.close());

async function invoice(patch: Record<string, unknown> = {}) {
  const due = new Date(s.p.clock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
  const r = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/invoices`, {
    key: s.demo.keys.manage_invoices,
    body: {
      partner_id: partnerId, due_date: due, processor_id: s.demo.processor_id, card_enabled: true, ach_enabled: true,
      note: 'Pay <soon>', products: [{ product_id: productId, quantity: 3 }], ...patch,
    },
  });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const page = (slug: string) => fetch(`${s.url}/invoices/${slug}`);
/** Whether the element with this id carries the hidden attribute. */
const isHidden = (html: string, id: string) => new RegExp(`id="${id}"[^>]*\\shidden[\\s>]`).test(html);

test('serves the invoice as HTML without a key: number, lines, totals, partner, due date, pay form', async () => {
  const inv = await invoice();
  const res = await page(inv.slug);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await res.text();
  assert.ok(html.includes(`Invoice ${inv.invoice_number}`));
  assert.ok(html.includes('Demo Merchant'));
  assert.ok(html.includes('$37.02'), 'total');
  assert.ok(html.includes('$3.00'), 'tax included');
  assert.ok(html.includes(inv.due_date.slice(0, 10)));
  assert.ok(html.includes('Pay $37.02'));
  assert.ok(html.includes(`data-pay-url="/api/v1/invoices/${inv.slug}/pay"`));
  assert.ok(!isHidden(html, 'pay-section'));
  assert.ok(isHidden(html, 'result-section'));
  assert.ok(!isHidden(html, 'card-fields'));
  assert.ok(isHidden(html, 'ach-fields'), 'card is the first choice');
  assert.doesNotMatch(html, /\{\{/, 'every placeholder is filled');
  assert.doesNotMatch(html, /https?:\/\/(?!127\.0\.0\.1)[a-z]/i, 'no external resources');
});

test('every value is HTML-escaped', async () => {
  const html = await (await page((await invoice()).slug)).text();
  assert.ok(!html.includes('<script>alert(1)</script>'));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co'));
  assert.ok(html.includes('O&quot;Lee'));
  assert.ok(html.includes('Tea &lt;b&gt;bold&lt;/b&gt;'));
  assert.ok(html.includes('Earl Grey &#39;loose&#39;'));
  assert.ok(html.includes('Pay &lt;soon&gt;'));
});

test('offers card and/or ACH per card_enabled / ach_enabled', async () => {
  const cases: Array<[boolean, boolean, { methods: boolean; card: boolean; ach: boolean; pay: boolean }]> = [
    [true, true, { methods: true, card: true, ach: false, pay: true }],
    [true, false, { methods: false, card: true, ach: false, pay: true }],
    [false, true, { methods: false, card: false, ach: true, pay: true }],
    [false, false, { methods: false, card: false, ach: false, pay: false }],
  ];
  for (const [card_enabled, ach_enabled, want] of cases) {
    const inv = await invoice({ card_enabled, ach_enabled });
    const html = await (await page(inv.slug)).text();
    const methodsShown = /<fieldset class="methods"\s*>/.test(html);
    assert.deepEqual(
      { methods: methodsShown, card: !isHidden(html, 'card-fields'), ach: !isHidden(html, 'ach-fields'), pay: !isHidden(html, 'pay-section') },
      want,
      `card ${card_enabled}, ach ${ach_enabled}`,
    );
    assert.ok(html.includes(`data-card="${card_enabled}" data-ach="${ach_enabled}"`));
    if (!want.pay) assert.ok(html.includes('Online payment is not available'));
  }
});

test('paid, archived and past-due invoices', async () => {
  const paid = await invoice();
  await s.call('POST', `/api/v1/invoices/${paid.slug}/pay`, { body: { token: 'tok_visa' } });
  const paidHtml = await (await page(paid.slug)).text();
  assert.ok(paidHtml.includes('badge-paid'));
  assert.ok(isHidden(paidHtml, 'pay-section'));
  assert.ok(paidHtml.includes('This invoice has been paid'));

  const archived = await invoice();
  await s.call('DELETE', `/api/v1/groups/${s.demo.group_id}/invoices/${archived.id}`, { key: s.demo.keys.manage_invoices });
  const archivedHtml = await (await page(archived.slug)).text();
  assert.ok(archivedHtml.includes('badge-archived'));
  assert.ok(isHidden(archivedHtml, 'pay-section'));
  assert.ok(archivedHtml.includes('can no longer be paid'));

  const yesterday = new Date(s.p.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
  const late = await invoice({ due_date: yesterday });
  const lateHtml = await (await page(late.slug)).text();
  assert.ok(lateHtml.includes('Past due'));
  assert.ok(!isHidden(lateHtml, 'pay-section'), 'a past-due invoice can be paid');
});

test('an unknown slug is an HTML 404; the page assets are served', async () => {
  const res = await page('nope-nope-nope');
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await res.text(), /Invoice not found/);
  const css = await fetch(`${s.url}/assets/invoice-page.css`);
  assert.equal(css.status, 200);
  assert.match(css.headers.get('content-type') ?? '', /text\/css/);
  const js = await fetch(`${s.url}/assets/invoice-page.js`);
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type') ?? '', /javascript/);
  assert.match(await js.text(), /\/api\/v1\/tokens|tokenUrl/);
});
