import '../helpers/env.js';
import { afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { cleanup, render } from 'ink-testing-library';
import { fitColumns, loadReportBrowser, type BrowserFilters, type ReportBrowserProps } from '../../src/tui/report-browser.js';
import { transactionSchema, type Transaction } from '../../src/domain/transactions.js';
import { netAmount } from '../../src/domain/reporting.js';

const KEY = { down: '\u001B[B', up: '\u001B[A', pageDown: '\u001B[6~', pageUp: '\u001B[5~', enter: '\r', esc: '\u001B', tab: '\t', backspace: '\u007F' };
const stripAnsi = (s: string) => s.replace(/\u001B\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex

async function settle(turns = 6): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function tx(i: number): Transaction {
  const status = i % 3 === 0 ? 'settled' : i % 3 === 1 ? 'pending' : 'declined';
  const brand = i % 2 === 0 ? 'Visa' : 'Mastercard';
  const at = new Date(Date.UTC(2026, 5, 30, 12) - i * 3_600_000).toISOString();
  const amount = 1000 + i;
  return transactionSchema.parse({
    id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    group_id: 'g', settlement_batch_ids: [], gateway: 'payctl-simulator', processor_id: 'p', processor_name: 'Simulated', processor_type: 'transaction_level',
    transaction_type: 'sale', payment_method: 'card',
    payment_details: { card: { brand, card_type: 'credit', first_six: '411111', last_four: String(4000 + i), customer_name: `Customer ${i}`, expiration_date: '29/12', avs: 'Y', cvv: 'M', issued_country: 'US' } },
    amounts: { requested_amount: amount, authorized_amount: status === 'declined' ? 0 : amount, captured_amount: status === 'declined' ? 0 : amount, refunded_amount: 0 },
    currency: 'USD', description: '', source: i % 2 ? 'api' : 'forms', order_id: `ORD-${i}`, po_number: '', email_receipt: false, email_address: '',
    user_id: '', username: '', billing_address: {}, form_external_id: '', form_entry_id: '', subscription_id: '', plan_id: '', invoice_id: '',
    invoice_number: '', payment_link_id: '', custom_fields: {}, commissions: [], response_code: '00', response_text: 'Approved', status,
    created_at: at, updated_at: at,
  });
}

const ALL = Array.from({ length: 45 }, (_, i) => tx(i));
const matching = (f: BrowserFilters) =>
  ALL.filter((t) => (!f.statuses || f.statuses.includes(t.status)) && (!f.brands || f.brands.includes(t.payment_details.card!.brand)));

let Browser: Awaited<ReturnType<typeof loadReportBrowser>>;
before(async () => {
  Browser = await loadReportBrowser();
});
afterEach(() => cleanup());

function start(props: Partial<ReportBrowserProps> = {}) {
  const pages: Array<{ filters: BrowserFilters; offset: number; limit: number }> = [];
  const summaries: BrowserFilters[] = [];
  let exits = 0;
  const app = render(
    createElement(Browser, {
      pageSize: 10,
      loadPage: async (filters: BrowserFilters, offset: number, limit: number) => {
        pages.push({ filters, offset, limit });
        return matching(filters).slice(offset, offset + limit);
      },
      loadSummary: async (filters: BrowserFilters) => {
        summaries.push(filters);
        const rows = matching(filters);
        return { total_count: rows.length, total_amount: rows.reduce((n, t) => n + netAmount({ status: t.status, ...t.amounts }), 0) };
      },
      onExit: () => exits++,
      ...props,
    }),
  );
  const frame = () => stripAnsi(app.lastFrame() ?? '');
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      app.stdin.write(k);
      await settle();
    }
  };
  return { app, frame, press, pages, summaries, exits: () => exits };
}

test('renders the first page, the summary line and the columns', async () => {
  const b = start();
  await settle();
  const f = b.frame();
  assert.match(f, /45 transactions · \$\d[\d,]*\.\d\d net · showing 1–10/);
  // ink-testing-library's terminal is 100 columns: the least important column (source) gives way.
  assert.match(f, /date\s+status\s+amount\s+method\s+customer\n/);
  assert.match(f, /2026-06-30 12:00 UTC\s+settled\s+\$10\.00\s+Visa …4000\s+Customer 0/);
  assert.match(f, /· source: Enter shows them/);
  for (const line of f.split('\n')) assert.ok([...line].length < 100, `a line wider than the terminal: ${line}`);
  assert.match(f, /Mastercard …4009/);
  assert.doesNotMatch(f, /…4010/); // row 11 is on the next page
  assert.deepEqual(b.pages, [{ filters: {}, offset: 0, limit: 10 }]);
});

test('the table keeps its most important columns on a narrow terminal: all six need 117 columns', () => {
  const titles = (width: number) => fitColumns(width).map((c) => c.title);
  assert.deepEqual(titles(120), ['date', 'status', 'amount', 'method', 'source', 'customer']);
  assert.deepEqual(titles(100), ['date', 'status', 'amount', 'method', 'customer']);
  assert.deepEqual(titles(80), ['date', 'status', 'amount', 'method']);
  assert.deepEqual(titles(40), ['date', 'status']);
});

test('several arrow keys in one read (key repeat, SSH) move a row each, and turn the page at its end', async () => {
  const b = start();
  await settle();
  await b.press(KEY.down.repeat(3));
  assert.match(b.frame(), /^› .*…4003/m);
  await b.press(KEY.up.repeat(2));
  assert.match(b.frame(), /^› .*…4001/m);
  await b.press(KEY.down.repeat(12));
  assert.match(b.frame(), /showing 11–20/, 'the keys past the last row turned the page');
  await b.press(KEY.pageDown.repeat(2));
  assert.match(b.frame(), /showing 31–40/, 'two PgDn in one read turn two pages');
  await b.press(KEY.pageUp.repeat(3));
  assert.match(b.frame(), /showing 1–10/);
});

test('PageDown and PageUp turn pages; ↓ at the last row turns the page too; only a page is ever asked for', async () => {
  const b = start();
  await settle();
  await b.press(KEY.pageDown);
  assert.match(b.frame(), /showing 11–20/);
  assert.match(b.frame(), /…4010/);
  assert.doesNotMatch(b.frame(), /…4009/);
  await b.press(KEY.pageDown, KEY.pageDown, KEY.pageDown);
  assert.match(b.frame(), /showing 41–45/);
  await b.press(KEY.pageDown); // no page after the last
  assert.match(b.frame(), /showing 41–45/);
  await b.press(KEY.pageUp);
  assert.match(b.frame(), /showing 31–40/);
  for (let i = 0; i < 9; i++) await b.press(KEY.down);
  assert.match(b.frame(), /showing 31–40/);
  await b.press(KEY.down); // past the last row of the page
  assert.match(b.frame(), /showing 41–45/);
  await b.press(KEY.up); // before the first row of the page
  assert.match(b.frame(), /showing 31–40/);
  assert.deepEqual(b.pages.map((p) => p.offset), [0, 10, 20, 30, 40, 30, 40, 30]);
  assert.ok(b.pages.every((p) => p.limit === 10));
});

test('the filter bar changes status and brand, reloads page and summary from the start', async () => {
  const b = start();
  await settle();
  await b.press(KEY.pageDown);
  await b.press('f');
  assert.match(b.frame(), /› status/);
  await b.press(...'settled'.split(''), KEY.tab, ...'Visa'.split(''));
  assert.match(b.frame(), /brand\s+Visa/);
  await b.press(KEY.enter);
  const want = matching({ statuses: ['settled'], brands: ['Visa'] });
  assert.deepEqual(b.pages.at(-1), { filters: { statuses: ['settled'], brands: ['Visa'] }, offset: 0, limit: 10 });
  assert.deepEqual(b.summaries.at(-1), { statuses: ['settled'], brands: ['Visa'] });
  const f = b.frame();
  assert.match(f, new RegExp(`${want.length} transactions .* showing 1–${Math.min(10, want.length)}`));
  assert.match(f, /status settled · brand Visa/);
  assert.doesNotMatch(f, /pending|declined|Mastercard/);
  // A date range the same way; Esc leaves the bar without applying.
  await b.press('/', KEY.tab, KEY.tab, ...'2026-06-30'.split(''), KEY.esc);
  assert.doesNotMatch(b.frame(), /from 2026-06-30/);
  await b.press('/', KEY.tab, KEY.tab, ...'2026-06-30'.split(''), KEY.enter);
  assert.deepEqual(b.pages.at(-1)!.filters, { statuses: ['settled'], brands: ['Visa'], start: '2026-06-30' });
});

test('a failed load is shown, not thrown', async () => {
  const b = start({
    loadPage: async () => {
      throw Object.assign(new Error('bad'), { fields: [{ path: 'statuses.0', message: '"x" is not a transaction status' }] });
    },
  });
  await settle();
  assert.match(b.frame(), /✖ statuses\.0: "x" is not a transaction status/);
});

test('Enter opens the selected transaction; Esc goes back; q quits', async () => {
  const b = start();
  await settle();
  await b.press(KEY.down, KEY.down, KEY.enter);
  const f = b.frame();
  assert.match(f, new RegExp(`id\\s+${ALL[2]!.id}`));
  assert.match(f, /requested\s+\$10\.02/);
  assert.match(f, /order id\s+ORD-2/);
  await b.press(KEY.esc);
  assert.match(b.frame(), /showing 1–10/);
  await b.press('q');
  assert.equal(b.exits(), 1);
});

test('text pasted together with Enter in one chunk is typed text followed by Enter', async () => {
  const b = start();
  await settle();
  await b.press('f');
  await b.press('settled\r'); // one stdin write, as a paste or a terminal multiplexer sends it
  assert.deepEqual(b.pages.at(-1), { filters: { statuses: ['settled'] }, offset: 0, limit: 10 });
  assert.match(b.frame(), /status settled/);
  await b.press('/', KEY.tab, 'Visa\r');
  assert.deepEqual(b.pages.at(-1)!.filters, { statuses: ['settled'], brands: ['Visa'] });
});

test('a key typed in answer to a frame reaches that frame\'s screen (q right after a filter is applied quits)', async () => {
  const b = start();
  await settle();
  await b.press('f', 'settled');
  // Type q the moment the applied filter is drawn, as a person (or a script) answering the screen
  // would: before Ink's effects run, so a handler left from the filter bar would take it as text.
  const stdout = b.app.stdout as unknown as { write: (frame: string) => void };
  const write = stdout.write.bind(stdout);
  let typed = false;
  stdout.write = (frame: string) => {
    write(frame);
    if (!typed && /status settled/.test(stripAnsi(frame)) && !/Enter: apply/.test(frame)) {
      typed = true;
      b.app.stdin.write('q');
    }
  };
  await b.press(KEY.enter);
  assert.ok(typed, 'the applied filter was drawn');
  assert.equal(b.exits(), 1);
});

// The reporting parser's problems for a status typo or an impossible date, as the command's checkFilters gives them.
const STATUSES = ['settled', 'pending', 'declined'];
function check(f: BrowserFilters) {
  const problems: Array<{ path: string; message: string }> = [];
  (f.statuses ?? []).forEach((s, i) => STATUSES.includes(s) || problems.push({ path: `statuses.${i}`, message: `"${s}" is not a transaction status` }));
  if (f.start && !/^\d{4}-(0[1-9]|1[0-2])-\d{2}$/.test(f.start)) problems.push({ path: 'start', message: 'must be a date (YYYY-MM-DD)' });
  return problems;
}

test('a filter typo is shown at its field; the bar stays open and nothing is applied or remembered', async () => {
  const remembered: BrowserFilters[] = [];
  const b = start({ checkFilters: check, onFiltersChange: (f) => remembered.push(f) });
  await settle();
  const loads = b.pages.length;
  await b.press('f', ...'setled'.split(''), KEY.enter);
  let f = b.frame();
  assert.match(f, /› status\s+setled▌[\s│]+✖ "setled" is not a transaction status/);
  assert.match(f, /Enter: apply/); // still in the bar
  assert.equal(b.pages.length, loads);
  assert.deepEqual(remembered, []);
  // Fixed in place: the mark goes as the field is edited, and Enter applies.
  await b.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, ...'ttled'.split(''));
  assert.doesNotMatch(b.frame(), /✖/);
  await b.press(KEY.enter);
  assert.deepEqual(b.pages.at(-1)!.filters, { statuses: ['settled'] });
  assert.deepEqual(remembered, [{ statuses: ['settled'] }]);
  // A bad from date: the cursor moves to the field that has the problem.
  await b.press('f', KEY.tab, KEY.tab, ...'2026-13-01'.split(''), KEY.tab, KEY.enter);
  f = b.frame();
  assert.match(f, /› from\s+2026-13-01▌[\s│]+✖ must be a date/);
  await b.press(KEY.esc);
  assert.match(b.frame(), /status settled/);
  assert.doesNotMatch(b.frame(), /2026-13-01|✖/);
  assert.deepEqual(remembered, [{ statuses: ['settled'] }]);
  await b.press('q');
  assert.equal(b.exits(), 1);
});

test('a load that throws before returning a promise is shown, and the browser keeps running', async () => {
  const b = start({
    loadPage: () => {
      throw new Error('no such window');
    },
  });
  await settle();
  assert.match(b.frame(), /✖ no such window/);
  await b.press('q');
  assert.equal(b.exits(), 1);
});
