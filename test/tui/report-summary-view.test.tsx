// The report browser's summary view (key s) over a real seeded database: the chart and
// breakdowns show the numbers of the summary service for the browser's filters, and
// the filters applied are remembered per database and group.
import '../helpers/env.js';
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { cleanup, render } from 'ink-testing-library';
import { loadReportBrowser, type BrowserFilters } from '../../src/tui/report-browser.js';
import { demoPlatform } from '../helpers/platform.js';
import { seedTransactions } from '../../src/dev/seed.js';
import { reportPage, reportSummary } from '../../src/services/reporting/reporting.js';
import { summarizeAll } from '../../src/services/reporting/summary.js';
import { parseSummaryQuery } from '../../src/domain/reporting-summary.js';
import { parseReportQuery } from '../../src/domain/reporting.js';
import { formatMoney } from '../../src/domain/money.js';
import { rememberedFilters, rememberFilters } from '../../src/cli/report-filters.js';
import type { Platform } from '../../src/services/platform.js';

const KEY = { enter: '\r', esc: '\u001B' };
const stripAnsi = (s: string) => s.replace(/\u001B\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex

let p: Platform;
let groupId: string;
let Browser: Awaited<ReturnType<typeof loadReportBrowser>>;

before(async () => {
  const d = await demoPlatform();
  p = d.p;
  groupId = d.demo.group_id;
  await seedTransactions(p, { groupId, transactions: 1500, months: 2, seed: 3 });
  Browser = await loadReportBrowser();
});
after(() => p.close());
afterEach(() => cleanup());

const windowOf = (f: BrowserFilters) => ({ statuses: f.statuses, brands: f.brands, start: f.start, end: f.end });
const summaryOf = (f: BrowserFilters) => summarizeAll(p, groupId, parseSummaryQuery(windowOf(f), p.clock.now()));

async function until(frame: () => string | undefined, re: RegExp, what: string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const text = stripAnsi(frame() ?? '');
    if (re.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`${what}: ${re} never appeared in\n${stripAnsi(frame() ?? '')}`);
}

/**
 * Press a key until the screen shows its effect: a key sent while Ink is re-rendering
 * after a load can reach the previous handler, which a person would simply press again.
 */
async function press(app: { stdin: { write(s: string): void }; lastFrame: () => string | undefined }, key: string, re: RegExp, what: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await pause();
    app.stdin.write(key);
    for (let i = 0; i < 100; i++) {
      const text = stripAnsi(app.lastFrame() ?? '');
      if (re.test(text)) return text;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return until(app.lastFrame, re, what);
}

/** Lets Ink re-bind its input handler after a render (a key sent sooner reaches the old one). */
const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

function start(onFiltersChange?: (f: BrowserFilters) => void) {
  return render(
    createElement(Browser, {
      pageSize: 8,
      loadPage: (f: BrowserFilters, offset: number, limit: number) => reportPage(p, groupId, parseReportQuery({ type: 'table', ...windowOf(f) }, p.clock.now()), offset, limit),
      loadSummary: (f: BrowserFilters) => reportSummary(p, groupId, parseReportQuery({ type: 'count', ...windowOf(f) }, p.clock.now())),
      loadFullSummary: summaryOf,
      onFiltersChange,
    }),
  );
}

function breakdownLine(text: string, key: string): string | undefined {
  return text.split('\n').find((l) => l.trimStart().startsWith(`${key} `));
}

test('s opens the summary: daily chart and a breakdown line per status with the service\'s numbers; s goes back', async () => {
  const app = start();
  await until(app.lastFrame, /s: summary/, 'the table');
  const text = await press(app, 's', /By source/, 'the summary');
  const all = await summaryOf({});
  assert.match(text, /Net amount per (\d+ )?days?/);
  assert.match(text, /[▁▂▃▄▅▆▇█]/);
  assert.ok(text.includes(`${all.total_count.toLocaleString('en-US')} transactions, net ${formatMoney(all.total_amount)}`));
  for (const b of all.status) {
    const l = breakdownLine(text, b.key);
    assert.ok(l, b.key);
    assert.ok(l.includes(b.count.toLocaleString('en-US')) && l.includes(formatMoney(b.amount)), l);
  }
  for (const b of all.brand) assert.ok(breakdownLine(text, b.key === '' ? '(bank account)' : b.key), b.key);
  await press(app, 's', /PgUp\/PgDn/, 'back to the table');
});

test('filters apply to the summary view, and the applied filters are reported for remembering', async () => {
  const applied: BrowserFilters[] = [];
  const app = start((f) => applied.push(f));
  await until(app.lastFrame, /s: summary/, 'the table');
  await press(app, 'f', /Tab: next field/, 'the filter bar');
  await pause();
  app.stdin.write('settled');
  await until(app.lastFrame, /status settled▌/, 'typed');
  await press(app, KEY.enter, /report {2}status settled/, 'filtered');
  const text = await press(app, 's', /By status/, 'the summary');
  const settled = await summaryOf({ statuses: ['settled'] });
  assert.deepEqual(settled.status.map((b) => b.key), ['settled']);
  assert.ok(breakdownLine(text, 'settled')!.includes(settled.total_count.toLocaleString('en-US')));
  assert.equal(breakdownLine(text, 'declined'), undefined);
  assert.deepEqual(applied, [{ statuses: ['settled'] }]);
});

test('remembered filters: per group, round-tripped through the database; damaged values are ignored', async () => {
  assert.equal(await rememberedFilters(p, groupId), undefined);
  await rememberFilters(p, groupId, { statuses: ['settled', 'pending'], start: '2026-01-01' });
  assert.deepEqual(await rememberedFilters(p, groupId), { statuses: ['settled', 'pending'], start: '2026-01-01' });
  assert.equal(await rememberedFilters(p, 'another-group'), undefined);
  await p.db.write((tx) => tx.run("UPDATE settings SET value = ? WHERE name = ?", ['{"statuses":"settled","brands":[1],"end":"2026-02-01"}', `report_browser.filters.${groupId}`]));
  assert.deepEqual(await rememberedFilters(p, groupId), { end: '2026-02-01' });
});
