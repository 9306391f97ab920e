// No card data at rest (PCI DSS 3.3/3.5): every test card number of data/test-cards.json
// is tokenized with a CVV and paid through every path the platform has (sale, auth +
// capture, add card + stored-card sale, payment link, invoice page, subscription billed
// by a clock advance, with receipts to the outbox), and ACH with the test bank
// accounts. Then the database's files (SQLite: the file and its -wal; PostgreSQL: this
// database's table, TOAST and index files after a CHECKPOINT — helpers/store.ts), the
// access log and the outbox are searched as raw bytes for each full number and CVV used,
// and every cell of every table as the store reads it: zero matches.
//
// The CVVs (7391 for the 4-digit Amex one, 917 for the rest) are matched as standalone
// digit runs (not inside UUIDs, timestamps or longer numbers), in the raw files and in
// every cell of every table.
import '../helpers/env.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { testCards } from '../../src/processor/test-cards.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { cardTokenBody, saleBody, US_BILLING, CARD_ADDRESS } from '../helpers/bodies.js';
import { report } from '../helpers/report.js';
import { cellText, dataFiles, tableNames, tableRows } from '../helpers/store.js';

const CVV4 = '7391';
const CVV3 = '917';
const cvvFor = (brand: string) => (brand === 'American Express' ? CVV4 : CVV3);

let s: TestServer;
after(() => s?.close());

/** Positions where `needle` occurs as a standalone run of digits (not part of a longer alphanumeric/hex/dotted token). */
function standaloneMatches(haystack: string, needle: string): number[] {
  const re = new RegExp(`(?<![0-9A-Za-z.:-])${needle}(?![0-9A-Za-z-])`, 'g');
  return [...haystack.matchAll(re)].map((m) => m.index!);
}

test('no full card number or CVV anywhere at rest after paying through every path', async () => {
  const logPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-log-')), 'access.log');
  s = await startTestServer({ accessLog: logPath, settings: { payRateLimit: { points: 100_000, durationMs: 60_000 } } });
  const g = s.demo.group_id;
  const tx = s.demo.keys.manage_transactions;
  const paths = new Map<string, number>();
  const count = (what: string) => paths.set(what, (paths.get(what) ?? 0) + 1);

  let mints = 0;
  const mint = async (number: string, cvv: string, idem = false) => {
    // With an Idempotency-Key, the tokenizer's response is stored for replay: it must hold no number either.
    const r = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody(number, cvv), headers: idem ? { 'idempotency-key': `mint-${++mints}` } : {} });
    assert.equal(r.status, 200, r.text);
    assert.doesNotMatch(r.text, new RegExp(number), 'the token response carries no full number');
    count('token minted');
    return r.body.token as string;
  };

  const cards = testCards().cards;
  for (const [i, card] of cards.entries()) {
    const cvv = cvvFor(card.brand);
    // Sale with a token (receipt e-mailed: the outbox gets a message).
    const sale = await s.call('POST', `/api/v1/groups/${g}/transaction`, {
      key: tx,
      body: saleBody(s.demo.processor_id, { token: await mint(card.number, cvv, true), emailReceipt: true, amount: 1000 + i }),
      headers: { 'idempotency-key': `sale-${i}` },
    });
    assert.equal(sale.status, 200, sale.text);
    count('sale');
    // Auth, then capture.
    const auth = await s.call('POST', `/api/v1/groups/${g}/transaction`, {
      key: tx,
      body: saleBody(s.demo.processor_id, { type: 'auth', token: await mint(card.number, cvv), amount: 2000 + i }),
    });
    assert.equal(auth.status, 200, auth.text);
    if (auth.body.status === 'authorized') {
      const cap = await s.call('POST', `/api/v1/groups/${g}/transaction/${auth.body.id}/capture`, { key: tx, body: { amount: 2000 + i } });
      assert.equal(cap.status, 200, cap.text);
      count('auth + capture');
    }
    // Add the card to the customer, then a sale on the stored card.
    const added = await s.call('POST', `/api/v1/groups/${g}/processing/${s.demo.linked_account_id}/customers/${s.demo.customer_id}/payment_methods/card`, {
      key: s.demo.keys.manage_customers,
      body: { token: await mint(card.number, cvv), billing_address: CARD_ADDRESS },
    });
    assert.equal(added.status, 200, added.text);
    count('add card');
    const stored = await s.call('POST', `/api/v1/groups/${g}/transaction`, {
      key: tx,
      body: { ...saleBody(s.demo.processor_id, { amount: 3000 + i }), billing_address: undefined, payment_details: { customer: { customer_id: s.demo.customer_id, card_id: added.body.card_id } } },
    });
    assert.equal(stored.status, 200, stored.text);
    count('stored-card sale');
    // A payment link paid with the card (a decline leaves it available: fine either way).
    const link = await s.call('POST', `/api/v1/groups/${g}/payment-links`, { key: tx, body: { amount: 4000 + i, description: `card ${i}` } });
    assert.equal(link.status, 200, link.text);
    const pub = await s.call('GET', `/api/v1/payment-links/${link.body.id}`);
    const pay = await s.call('POST', `/api/v1/payment-links/${link.body.id}/pay`, {
      key: pub.body.session_token,
      body: { token: await mint(card.number, cvv), billing_address: US_BILLING },
    });
    assert.ok(pay.status === 200 || pay.status === 400, pay.text);
    count('payment link');
    // The public invoice page's pay endpoint.
    const invoice = await s.call('POST', `/api/v1/groups/${g}/invoices`, {
      key: s.demo.keys.manage_invoices,
      body: {
        partner_id: (s.demo.partner_ids as string[])[0],
        due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        processor_id: s.demo.processor_id,
        card_enabled: true,
        ach_enabled: true,
        products: [{ product_id: (s.demo.product_ids as string[])[0], quantity: 1 }],
      },
    });
    assert.equal(invoice.status, 200, invoice.text);
    const paid = await s.call('POST', `/api/v1/invoices/${invoice.body.slug}/pay`, { body: { token: await mint(card.number, cvv) } });
    assert.ok(paid.status === 200 || paid.status === 400, paid.text);
    count('invoice page');
    // A subscription paid by the card, billed by moving the clock.
    const sub = await s.call('POST', `/api/v1/groups/${g}/processing/${s.demo.linked_account_id}/recurring/subscription`, {
      key: tx,
      body: { plan_id: (s.demo.plan_ids as string[])[0], customer_id: s.demo.customer_id, payment_details: { token: await mint(card.number, cvv) } },
    });
    assert.equal(sub.status, 200, sub.text);
    count('subscription');
  }
  // ACH with the test bank accounts (sale with a bank token).
  for (const bank of testCards().bank_accounts) {
    const tok = await s.call('POST', '/api/v1/tokens', {
      body: { bank_account: { routing_number: bank.routing_number, account_number: bank.account_number, account_type: 'checking', holder_name: 'Bank Holder' } },
    });
    assert.equal(tok.status, 200, tok.text);
    const sale = await s.call('POST', `/api/v1/groups/${g}/transaction`, { key: tx, body: saleBody(s.demo.processor_id, { token: tok.body.token }) });
    assert.equal(sale.status, 200, sale.text);
    count('ach sale');
  }
  // Bill the subscriptions (and settle the day's sales) on the platform clock.
  const advanced = await advanceClock(s.p, 40 * 86_400_000);
  const billed = await s.p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE subscription_id IS NOT NULL AND subscription_id <> ''");
  assert.ok(billed!.n >= cards.length, `subscription charges: ${billed!.n} (${JSON.stringify(advanced.work)})`);
  const outbox = await s.p.db.all<Record<string, unknown>>('SELECT * FROM outbox');
  assert.ok(outbox.length > 0, 'receipts reached the outbox');

  // Search: raw bytes of the database and its WAL (while open, the WAL holds recent pages), the access log, every table cell.
  const dbPath = s.dbPath;
  const secrets = [
    ...cards.map((c) => ({ what: `card ${c.number}`, needle: c.number, standalone: false })),
    ...testCards().bank_accounts.map((b) => ({ what: `bank account ${b.account_number}`, needle: b.account_number, standalone: false })),
    { what: `CVV ${CVV4}`, needle: CVV4, standalone: true },
    { what: `CVV ${CVV3}`, needle: CVV3, standalone: true },
  ];
  const search = (label: string, bytes: Buffer | string) => {
    const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
    const found: string[] = [];
    for (const sec of secrets) {
      const hits = sec.standalone ? standaloneMatches(text, sec.needle) : [...text.matchAll(new RegExp(sec.needle, 'g'))].map((m) => m.index!);
      for (const at of hits) found.push(`${sec.what} in ${label} at ${at}: …${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}…`);
    }
    return found;
  };
  const sizes: Record<string, number> = {};
  const found: string[] = [];
  const scanFiles = async (when: string) => {
    for (const f of [...(await dataFiles(dbPath)), logPath]) {
      if (!existsSync(f)) continue;
      const bytes = readFileSync(f);
      const what = `${f === logPath ? 'access log' : 'database files'} (${when})`;
      sizes[what] = (sizes[what] ?? 0) + bytes.length;
      found.push(...search(`${f} (${when})`, bytes));
    }
  };
  await scanFiles('open');
  let cells = 0;
  for (const name of await tableNames(s.p.db)) {
    for (const row of await tableRows(s.p.db, name)) {
      for (const [col, v] of Object.entries(row)) {
        if (v === null || v === undefined) continue;
        cells++;
        const text = cellText(v);
        // A cell that is exactly a CVV is caught here even when its neighbours in the file are digits.
        for (const cvv of [CVV3, CVV4]) if (text === cvv) found.push(`CVV ${cvv} as the whole of ${name}.${col}`);
        found.push(...search(`${name}.${col}`, text));
      }
    }
  }
  const outboxText = JSON.stringify(outbox);
  found.push(...search('outbox', outboxText));
  assert.ok(readFileSync(logPath, 'utf8').includes('/api/v1/tokens'), 'the access log recorded the requests');

  // After a clean close the WAL is merged into the main file: search that too.
  await s.close();
  s = undefined as unknown as TestServer;
  await scanFiles('closed');

  report('card-data', {
    cards: cards.length,
    bank_accounts: testCards().bank_accounts.length,
    paths: Object.fromEntries(paths),
    subscription_charges: billed!.n,
    outbox_messages: outbox.length,
    bytes_searched: sizes,
    table_cells_searched: cells,
    matches: found.length,
  });
  assert.deepEqual(found, []);
});
