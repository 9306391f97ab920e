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
import { rememberReportFilters, savedReportFilters } from '../../src/services/reporting/saved-filters.js';
import { execute } from '../../src/services/use-case.js';
import { contextFor } from '../../src/services/context.js';
import type { Platform } from '../../src/services/platform.js';

const KEY = { enter: '\r', esc: '\u001B', pageDown: '\u001B[6~', pageUp: '\u001B[5~' };
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

type App = ReturnType<typeof render>;

/** A frame that matches `re`: the current one, or the next one Ink writes that does (no polling: frames are awaited). */
function frameMatching(app: App, re: RegExp, what: string): Promise<string> {
  const now = stripAnsi(app.lastFrame() ?? '');
  if (re.test(now)) return Promise.resolve(now);
  const out = app.stdout as unknown as NodeJS.EventEmitter;
  return new Promise((resolve, reject) => {
    // A deadline, not a poll: a frame that never comes fails with what the screen last showed.
    const deadline = setTimeout(() => {
      out.off('frame', onFrame);
      reject(new Error(`${what}: ${re} never appeared in\n${stripAnsi(app.lastFrame() ?? '')}`));
    }, 60_000);
    const onFrame = (frame: string) => {
      const text = stripAnsi(frame);
      if (!re.test(text)) return;
      clearTimeout(deadline);
      out.off('frame', onFrame);
      resolve(text);
    };
    out.on('frame', onFrame);
  });
}

/** Event-loop turns for Ink to run its effects after a render (input handlers re-bind there). */
async function settle(turns = 6): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Press a key and wait for the frame that shows its effect. */
async function press(app: App, key: string, re: RegExp, what: string): Promise<string> {
  await settle();
  app.stdin.write(key);
  const text = await frameMatching(app, re, what);
  await settle();
  return text;
}

function start(onFiltersChange?: (f: BrowserFilters) => void): App {
  const app = render(
    createElement(Browser, {
      pageSize: 8,
      loadPage: (f: BrowserFilters, offset: number, limit: number) => reportPage(p, groupId, parseReportQuery({ type: 'table', ...windowOf(f) }, p.clock.now()), offset, limit),
      loadSummary: (f: BrowserFilters) => reportSummary(p, groupId, parseReportQuery({ type: 'count', ...windowOf(f) }, p.clock.now())),
      loadFullSummary: summaryOf,
      onFiltersChange,
    }),
  );
  // Every frame Ink writes is announced, so a test awaits the frame it expects.
  const out = app.stdout as unknown as NodeJS.EventEmitter & { write: (frame: string) => void };
  const write = out.write;
  out.write = (frame: string) => {
    write(frame);
    out.emit('frame', frame);
  };
  return app;
}

/**
 * Open the summary (key s) and read all of it: the view shows what fits the terminal
 * (ink-testing-library's: 24 rows) and PgDn turns it, so the text is gathered page by page.
 */
async function readSummary(app: App, shown: RegExp): Promise<string> {
  let frame = await press(app, 's', /lines 1–\d+ of \d+/, 'the summary, first page');
  const body = (f: string) => f.split('\n').slice(2, -1);
  const lines = body(frame);
  for (let page = 2; !/lines \d+–(\d+) of \1 /.test(frame) && page < 20; page++) {
    frame = await press(app, KEY.pageDown, new RegExp(`lines (?!1–)\\d+–\\d+ of`), `the summary, page ${page}`);
    for (const l of body(frame)) if (!lines.includes(l) || l.trim() === '') lines.push(l);
  }
  const text = lines.join('\n');
  assert.match(text, shown);
  return text;
}

function breakdownLine(text: string, key: string): string | undefined {
  return text.split('\n').find((l) => l.trimStart().startsWith(`${key} `));
}

test('s opens the summary: daily chart and a breakdown line per status with the service\'s numbers; s goes back', async () => {
  const app = start();
  await frameMatching(app, /s: summary/, 'the table');
  const text = await readSummary(app, /By source/);
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
  await press(app, KEY.pageUp.repeat(20), /lines 1–/, 'the top of the summary again');
  await press(app, 's', /PgUp\/PgDn: page/, 'back to the table');
});

test('filters apply to the summary view, and the applied filters are reported for remembering', async () => {
  const applied: BrowserFilters[] = [];
  const app = start((f) => applied.push(f));
  await frameMatching(app, /s: summary/, 'the table');
  await press(app, 'f', /Tab: next field/, 'the filter bar');
  await press(app, 'settled', /status settled▌/, 'typed');
  await press(app, KEY.enter, /report {2}status settled/, 'filtered');
  const text = await readSummary(app, /By status/);
  const settled = await summaryOf({ statuses: ['settled'] });
  assert.deepEqual(settled.status.map((b) => b.key), ['settled']);
  assert.ok(breakdownLine(text, 'settled')!.includes(settled.total_count.toLocaleString('en-US')));
  assert.equal(breakdownLine(text, 'declined'), undefined);
  assert.deepEqual(applied, [{ statuses: ['settled'] }]);
});

test('remembered filters: per group, round-tripped through the database; damaged values are ignored', async () => {
  const rememberedFilters = (p: Platform, group: string) => execute(savedReportFilters, p, contextFor(p, group), {});
  const rememberFilters = (p: Platform, group: string, filters: BrowserFilters) => execute(rememberReportFilters, p, contextFor(p, group), { filters });
  assert.equal(await rememberedFilters(p, groupId), undefined);
  await rememberFilters(p, groupId, { statuses: ['settled', 'pending'], start: '2026-01-01' });
  assert.deepEqual(await rememberedFilters(p, groupId), { statuses: ['settled', 'pending'], start: '2026-01-01' });
  assert.equal(await rememberedFilters(p, 'another-group'), undefined);
  await p.db.write((tx) => tx.run("UPDATE settings SET value = ? WHERE name = ?", ['{"statuses":"settled","brands":[1],"end":"2026-02-01"}', `report_browser.filters.${groupId}`]));
  assert.deepEqual(await rememberedFilters(p, groupId), { end: '2026-02-01' });
  for (const damaged of ['{"statuses":', 'null']) {
    await p.db.write((tx) => tx.run("UPDATE settings SET value = ? WHERE name = ?", [damaged, `report_browser.filters.${groupId}`]));
    assert.equal(await rememberedFilters(p, groupId), undefined, damaged);
  }
  await rememberFilters(p, groupId, {});
  assert.deepEqual(await rememberedFilters(p, groupId), {});
});
