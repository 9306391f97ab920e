// The public invoice page in headless Chromium at phone width: the invoice is shown with
// labelled fields, a declined card shows why and leaves the invoice payable, then a
// card (and, on another invoice, a bank account) pays it through the tokenizer.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { packageRoot } from '../../src/lib/paths.js';

const artifacts = path.join(packageRoot, 'test/artifacts');

let s: TestServer;
let browser: Browser;
let partnerId: string;
before(async () => {
  s = await startTestServer();
  browser = await launchBrowser();
  mkdirSync(artifacts, { recursive: true });
  const partner = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/partners`, {
    key: s.demo.keys.manage_partners,
    body: {
      company: 'Blue Door Cafe', first_name: 'Grace', last_name: 'Hopper', email: 'grace@bluedoor.example', line_1: '12 Harbor Rd',
      city: 'Portland', subdivision: 'OR', postal_code: '97201', country: 'US',
    },
  });
  partnerId = partner.body.id;
});
after(async () => {
  await browser?.close();
  await s?.close();
});

async function createInvoice(patch: Record<string, unknown> = {}) {
  const [beans, , jug] = s.demo.product_ids as string[];
  const due = new Date(s.p.clock.now().getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
  const r = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/invoices`, {
    key: s.demo.keys.manage_invoices,
    body: {
      partner_id: partnerId, due_date: due, processor_id: s.demo.processor_id, card_enabled: true, ach_enabled: true,
      note: 'Thank you for your business.', products: [{ product_id: beans, quantity: 4 }, { product_id: jug!, quantity: 1 }], ...patch,
    },
  });
  assert.equal(r.status, 200, r.text);
  return r.body as { id: string; slug: string; invoice_number: string; amount: number };
}

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  return context.newPage();
}

const status = async (id: string) =>
  (await s.call('GET', `/api/v1/groups/${s.demo.group_id}/invoices/${id}`, { key: s.demo.keys.view_invoices })).body.status as string;

async function fillCard(page: Page, number: string) {
  const year = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
  await page.getByLabel('Name on card').fill('Grace Hopper');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill(`12/${year}`);
  await page.getByLabel('Security code (CVV)').fill('123');
}

test('card: a declined card shows why and leaves the invoice payable; then it is paid', async () => {
  const inv = await createInvoice();
  const page = await phonePage();
  const requests: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${s.url}/invoices/${inv.slug}`);

  assert.equal(await page.locator('h1').textContent(), `Invoice ${inv.invoice_number}`);
  assert.equal((await page.locator('#status-badge').textContent())?.trim(), 'Pending');
  assert.equal((await page.locator('#total').textContent())?.trim(), '$114.50');
  const lines = await page.locator('#lines tbody tr').allTextContents();
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /Espresso beans 1 kg/);
  assert.match(await page.locator('#bill-to').textContent() ?? '', /Blue Door Cafe/);

  // Both methods are offered; card first. Every visible control has a label; nothing overflows the phone screen.
  assert.equal(await page.getByLabel('Card', { exact: true }).isChecked(), true);
  assert.equal(await page.getByLabel('Routing number').isVisible(), false);
  const unlabelled = await page.$$eval('input, select', (els) =>
    els.filter((el) => (el as HTMLInputElement).labels?.length === 0).map((el) => el.id || el.outerHTML),
  );
  assert.deepEqual(unlabelled, []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);

  // A card number that fails Luhn: the tokenizer's message, the field marked invalid.
  await fillCard(page, '4111111111111112');
  await page.getByRole('button', { name: 'Pay $114.50' }).click();
  await page.locator('#pay-error').waitFor({ state: 'visible' });
  assert.match(await page.locator('#pay-error').textContent() ?? '', /Card number: is not a valid card number/);
  assert.equal(await page.getByLabel('Card number').getAttribute('aria-invalid'), 'true');

  // A declined card: the reason, the invoice still pending, the form still there.
  await page.getByLabel('Card number').fill('4000000000000002');
  await page.getByRole('button', { name: 'Pay $114.50' }).click();
  await page.locator('#pay-error', { hasText: 'Declined' }).waitFor();
  assert.match(await page.locator('#pay-error').textContent() ?? '', /^Declined: do not honor\. Nothing was charged; try another card\.$/);
  assert.equal(await status(inv.id), 'pending');
  assert.equal(await page.getByRole('button', { name: 'Pay $114.50' }).isEnabled(), true);
  await page.screenshot({ path: path.join(artifacts, 'invoice-page-declined.png'), fullPage: true });

  // An approved card pays it.
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await page.getByRole('button', { name: 'Pay $114.50' }).click();
  await page.locator('#result-section').waitFor({ state: 'visible' });
  assert.match(await page.locator('#result-title').textContent() ?? '', /Payment received/);
  assert.equal((await page.locator('#status-badge').textContent())?.trim(), 'Paid');
  assert.equal(await page.locator('#pay-section').isVisible(), false);
  await page.screenshot({ path: path.join(artifacts, 'invoice-page-paid.png'), fullPage: true });

  assert.equal(await status(inv.id), 'paid');
  const txs = await s.p.db.all<{ status: string; source: string; invoice_number: string; last_four: string }>(
    'SELECT status, source, invoice_number, last_four FROM transactions WHERE invoice_id = ? ORDER BY created_at, id', [inv.id],
  );
  assert.deepEqual(txs.map((t) => ({ ...t })), [
    { status: 'declined', source: 'invoice', invoice_number: inv.invoice_number, last_four: '0002' },
    { status: 'pending', source: 'invoice', invoice_number: inv.invoice_number, last_four: '1111' },
  ]);
  // Only this server was contacted (no CDN), and the page ran without script errors.
  assert.ok(requests.every((u) => u.startsWith(s.url)), requests.join('\n'));
  assert.deepEqual(errors, []);

  // Reloading shows the paid invoice without a form.
  await page.reload();
  assert.equal((await page.locator('#status-badge').textContent())?.trim(), 'Paid');
  assert.equal(await page.locator('#pay-form').isVisible(), false);
  await page.context().close();
});

test('ACH: switching to bank account and paying', async () => {
  const inv = await createInvoice();
  const page = await phonePage();
  await page.goto(`${s.url}/invoices/${inv.slug}`);
  await page.getByLabel('Bank account (ACH)').check();
  assert.equal(await page.getByLabel('Card number').isVisible(), false);
  await page.getByLabel('Account holder name').fill('Grace Hopper');
  await page.getByLabel('Routing number').fill('110000000');
  await page.getByLabel('Account number').fill('000123456789');
  await page.getByLabel('Account type').selectOption('checking');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.locator('#result-section').waitFor({ state: 'visible' });
  assert.equal(await status(inv.id), 'paid');
  const tx = await s.p.db.get<{ payment_method: string; source: string }>('SELECT payment_method, source FROM transactions WHERE invoice_id = ?', [inv.id]);
  assert.deepEqual({ ...tx }, { payment_method: 'ach', source: 'invoice' });
  await page.context().close();
});

test('ACH only: no method choice, the bank fields are shown', async () => {
  const inv = await createInvoice({ card_enabled: false, ach_enabled: true });
  const page = await phonePage();
  await page.goto(`${s.url}/invoices/${inv.slug}`);
  assert.equal(await page.locator('fieldset.methods').isVisible(), false);
  assert.equal(await page.getByLabel('Routing number').isVisible(), true);
  assert.equal(await page.getByLabel('Card number').isVisible(), false);
  await page.context().close();
});
