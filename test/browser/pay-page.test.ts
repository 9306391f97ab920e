// The hosted pay page in headless Chromium at phone width: labelled fields, amount and
// description shown, inline errors (validation and a declined card), then a real
// payment through the tokenizer and the session token, ending at redirect_url.
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
const THANKS = 'https://shop.example/thanks';

let s: TestServer;
let browser: Browser;
before(async () => {
  s = await startTestServer({ settings: { payRateLimit: { points: 1000, durationMs: 60_000 } } });
  browser = await launchBrowser();
  mkdirSync(artifacts, { recursive: true });
});
after(async () => {
  await browser?.close();
  await s?.close();
});

async function createLink(body: Record<string, unknown>): Promise<string> {
  const r = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/payment-links`, { key: s.demo.keys.manage_transactions, body });
  assert.equal(r.status, 200, r.text);
  return r.body.id as string;
}

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  // The merchant's thank-you page lives elsewhere; answer it here (the test machine is offline).
  await page.route(`${THANKS}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Thanks for your order</h1>' }));
  return page;
}

const linkStatus = async (id: string) => (await s.p.db.get<{ status: string }>('SELECT status FROM payment_links WHERE id = ?', [id]))?.status;

async function fillBilling(page: Page) {
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Address', { exact: true }).fill('1 Main St');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State / province').fill('IL');
  await page.getByLabel('Postal code').fill('62701');
  await page.getByLabel('Country').selectOption('US');
}

async function fillCard(page: Page, number: string) {
  const year = String((s.p.clock.now().getUTCFullYear() + 3) % 100).padStart(2, '0');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill(`12/${year}`);
  await page.getByLabel('Security code (CVV)').fill('123');
}

test('pay flow at phone width: inline errors, a declined card, then payment and redirect', async () => {
  const id = await createLink({ amount: 2500, description: 'Espresso tasting for two', redirect_url: THANKS });
  const page = await phonePage();
  const served: string[] = [];
  page.on('request', (req) => served.push(req.url()));
  await page.goto(`${s.url}/pay/${id}`);

  await assertText(page, '#description', 'Espresso tasting for two');
  await assertText(page, '#amount', '$25.00');
  assert.equal(await page.getByRole('button', { name: 'Pay $25.00' }).isVisible(), true);

  // Every visible form control has a label; nothing overflows a phone-width screen.
  const unlabelled = await page.$$eval('input:not([type=radio]), select', (els) =>
    els.filter((el) => !(el as HTMLInputElement).closest('[hidden]') && (el as HTMLInputElement).labels?.length === 0).map((el) => el.id),
  );
  assert.deepEqual(unlabelled, []);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no horizontal scrolling at 360px');
  await page.screenshot({ path: path.join(artifacts, 'pay-page.png'), fullPage: true });

  // Submitting empty: inline errors next to the fields, nothing sent.
  await page.getByRole('button', { name: /^Pay/ }).click();
  await assertText(page, '#card-number-error', 'is required');
  await assertText(page, '#first-name-error', 'is required');
  assert.equal(await page.getAttribute('#card-number', 'aria-invalid'), 'true');

  // A server-side field error (postal code too long for the US) lands on its field.
  await fillBilling(page);
  await fillCard(page, '4111 1111 1111 1111');
  await page.getByLabel('Postal code').fill('627011');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForFunction(() => document.getElementById('postal-code-error')?.textContent !== '');
  await assertText(page, '#postal-code-error', 'exactly 5 characters for US');
  await page.getByLabel('Postal code').fill('62701');

  // A declined card: the reason inline, the link still payable.
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForSelector('#form-error:not([hidden])');
  await assertText(page, '#form-error', 'declined');
  await page.screenshot({ path: path.join(artifacts, 'pay-page-declined.png'), fullPage: true });
  assert.equal(await linkStatus(id), 'available');

  // A good card: paid, and the browser follows redirect_url.
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await Promise.all([page.waitForURL(THANKS), page.getByRole('button', { name: /^Pay/ }).click()]);
  assert.match(await page.textContent('h1') ?? '', /Thanks/);
  assert.equal(await linkStatus(id), 'paid');
  // Both attempts reached the processor, so both are transactions: the decline, then the sale.
  const txns = await s.p.db.all<{ requested_amount: number; last_four: string; status: string }>(
    'SELECT requested_amount, last_four, status FROM transactions WHERE payment_link_id = ? ORDER BY created_at, id',
    [id],
  );
  assert.deepEqual(txns, [
    { requested_amount: 2500, last_four: '0002', status: 'declined' },
    { requested_amount: 2500, last_four: '1111', status: 'pending' },
  ]);
  assert.deepEqual(served.filter((u) => !u.startsWith(s.url) && !u.startsWith(THANKS)), [], 'no CDN or other origin');

  // Coming back to the page shows the merchant and the receipt, with no form.
  await page.goto(`${s.url}/pay/${id}`);
  await page.waitForSelector('#receipt:not([hidden])');
  assert.equal(await page.isVisible('#pay-form'), false);
  const sale = (await s.p.db.get<{ id: string; created_at: string }>(
    "SELECT id, created_at FROM transactions WHERE payment_link_id = ? AND status = 'pending'",
    [id],
  ))!;
  assert.equal(await page.textContent('[data-testid=merchant]'), await merchantName());
  assert.equal(await page.textContent('[data-testid=receipt-amount]'), '$25.00');
  assert.equal(await page.textContent('[data-testid=receipt-method]'), 'Visa …1111');
  assert.equal(await page.textContent('[data-testid=receipt-transaction]'), sale.id);
  assert.equal(await page.textContent('[data-testid=receipt-date]'), `${sale.created_at.slice(0, 10)} ${sale.created_at.slice(11, 16)} UTC`);
  assert.doesNotMatch((await page.textContent('#receipt')) ?? '', /4111\s?1111\s?1111|411111/, 'never the card number, not even its first six');
  // Printed: the receipt and the merchant, without the buttons.
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.isVisible('#receipt'), true);
  assert.equal(await page.isVisible('#print-receipt'), false);
  assert.equal(await page.isVisible('[data-testid=merchant]'), true);
  await page.pdf({ path: path.join(artifacts, 'pay-page-receipt.pdf') });
  await page.context().close();
});

const merchantName = async () => (await s.p.db.get<{ name: string }>('SELECT name FROM groups WHERE id = ?', [s.demo.group_id]))!.name;

test('the pay page names the merchant before paying', async () => {
  const id = await createLink({ amount: 1200, description: 'Two coffees' });
  const page = await phonePage();
  await page.goto(`${s.url}/pay/${id}`);
  await assertText(page, '#description', 'Two coffees');
  assert.equal(await page.textContent('[data-testid=merchant]'), await merchantName());
  assert.equal(await page.isVisible('#receipt'), false);
  await page.context().close();
});

test('open amount with a bank account; without a redirect_url the page shows itself paid', async () => {
  const id = await createLink({ open_amount: true, description: 'Tip the baristas', ach_enabled: true });
  const page = await phonePage();
  await page.goto(`${s.url}/pay/${id}`);
  await assertText(page, '#amount', 'Amount of your choice');
  await page.getByLabel('Amount to pay (USD)').fill('7.50');
  assert.equal(await page.getByRole('button', { name: 'Pay $7.50' }).isVisible(), true);
  await page.getByLabel('Bank account (ACH)').check();
  assert.equal(await page.isVisible('#card-number'), false);
  await page.getByLabel('Account holder name').fill('Ada Lovelace');
  await page.getByLabel('Routing number').fill('110000000');
  await page.getByLabel('Account number').fill('000123456789');
  await fillBilling(page);
  await page.getByRole('button', { name: /^Pay/ }).click();
  // Without a redirect_url the pay result points at this page: it comes back with the receipt.
  await page.waitForSelector('#receipt:not([hidden])');
  assert.equal(await page.textContent('[data-testid=receipt-amount]'), '$7.50');
  assert.equal(await page.textContent('[data-testid=receipt-method]'), 'Bank account …6789');
  assert.equal(await page.textContent('#amount'), '$7.50');
  await page.screenshot({ path: path.join(artifacts, 'pay-page-paid.png'), fullPage: true });
  const txn = await s.p.db.get<{ requested_amount: number; payment_method: string }>(
    'SELECT requested_amount, payment_method FROM transactions WHERE payment_link_id = ?',
    [id],
  );
  assert.deepEqual(txn, { requested_amount: 750, payment_method: 'ach' });
  await page.context().close();
});

async function assertText(page: Page, selector: string, expected: string) {
  await page.waitForFunction(
    ([sel, text]) => document.querySelector(sel!)?.textContent?.includes(text!) ?? false,
    [selector, expected],
    { timeout: 10_000 },
  ).catch(async () => {
    assert.fail(`${selector} should contain "${expected}", has "${await page.textContent(selector)}"`);
  });
}
