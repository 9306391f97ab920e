// `payctl report` on a terminal: the browser opens with the filters last applied on this
// database (for this group), unless filters are given on the command line.
import '../helpers/env.js';
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliJson } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { tempDbPath } from '../helpers/platform.js';

let db: string;
let group: string;
before(async () => {
  db = tempDbPath();
  group = (await runCliJson<{ group_id: string }>(['init', '--demo'], { db })).group_id;
});

// The title line that says which filters apply (the filter bar's input ends in ▌ instead).
const applied = /report {2}status settled[ \r]/;

test('the report browser reopens with the last applied filters; filters on the command line win', async () => {
  const first = await runInPty(['report', '--group', group], {
    db,
    answer: [
      { when: /q: quit/, input: 'f' },
      // One letter first, the rest once the bar shows it: keys typed before the bar reads them raw
      // would reach it through the terminal's line editing (Enter as a newline).
      { when: /› status/, input: 's' },
      { when: /s(?:\u001B\[[0-9;]*m)*▌/, input: 'ettled\r' },
      { when: applied, input: 'q' },
    ],
  });
  assert.equal(first.code, 0, first.output);

  const again = await runInPty(['report', '--group', group], { db, answer: { when: /q: quit/, input: 'q' } });
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, applied);

  const flags = await runInPty(['report', '--group', group, '--status', 'pending'], { db, answer: { when: /q: quit/, input: 'q' } });
  assert.equal(flags.code, 0, flags.output);
  assert.match(flags.output, /report {2}status pending[ \r]/);
  assert.doesNotMatch(flags.output, applied);
});

test('the report browser fits a 120-column terminal: one line per transaction', async () => {
  // A customer name that fills its column, so that a row is as wide as the table.
  const name = ['--first-name', 'Bartholomew', '--last-name', 'Featherstonehaugh'];
  const address = ['--line1', '1 Main St', '--city', 'Austin', '--state', 'TX', '--zip', '78701', '--country', 'US', '--email', 'bf@example.com'];
  await runCliJson(['sale', '--group', group, '--amount', '10.00', '--token', 'tok_visa', ...name, ...address, '--json'], { db });
  // Every status (the browser may remember a filter from above; the command line wins); q once rows are shown.
  const all = ['--status', 'pending,authorized,captured,declined,settled,voided,refunded,expired'];
  const run = await runInPty(['report', '--group', group, ...all], { db, cols: 120, answer: { when: /showing 1–/, input: 'q' } });
  assert.equal(run.code, 0, run.output);
  const lines = run.output.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/); // eslint-disable-line no-control-regex
  const rows = lines.filter((l) => /^[ ›] \d{4}-\d{2}-\d{2} /.test(l));
  assert.ok(rows.length >= 4, run.output);
  assert.ok(rows.every((l) => l.length <= 120), rows.join('\n'));
  assert.ok(rows.some((l) => l.includes('Bartholomew Featherst')), run.output);
  // A wrapped row would leave its tail (the customer's name) on a line of its own.
  assert.ok(!lines.some((l) => /^\s*(?:Ada Lovelace|Bartholomew|Featherst\w*…?)\s*$/.test(l)), run.output);
});

const plain = (s: string) => s.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, ''); // eslint-disable-line no-control-regex

test('a filter typo is shown at its field; the browser keeps running and does not remember it', async () => {
  const run = await runInPty(['report', '--group', group], {
    db,
    cols: 140,
    answer: [
      { when: /q: quit/, input: 'f' },
      // The bar opens on the filter remembered above (settled): one key first, as in the test above.
      { when: /› status/, input: '\u007F' },
      { when: /settle(?:\u001B\[[0-9;]*m)*▌/, input: `${'\u007F'.repeat(6)}setled\r` },
      { when: /✖/, input: '\u001B' },
      { when: /q: quit/, input: 'q' },
    ],
  });
  assert.equal(run.code, 0, run.output);
  const out = plain(run.output);
  assert.match(out, /✖ "setled" is not a transaction status; use one of: settled/);
  assert.doesNotMatch(out, /ERROR|\.js:\d+|react-reconciler|Error:/);
  const again = await runInPty(['report', '--group', group], { db, answer: { when: /q: quit/, input: 'q' } });
  assert.equal(again.code, 0, again.output);
  assert.doesNotMatch(plain(again.output), /setled|Dropped/);
});

test('saved filters that no longer parse are dropped with a notice, once', async () => {
  const { openPlatform } = await import('../../src/services/platform.js');
  const { contextFor } = await import('../../src/services/context.js');
  const { execute } = await import('../../src/services/use-case.js');
  const { rememberReportFilters } = await import('../../src/services/reporting/saved-filters.js');
  const p = await openPlatform({ db: db });
  // As an older payctl saved them: a status typo and a from date that does not exist.
  await execute(rememberReportFilters, p, contextFor(p, group), { filters: { statuses: ['setled'], start: '2026-02-31' } });
  await p.close();
  const first = await runInPty(['report', '--group', group], { db, answer: { when: /q: quit/, input: 'q' } });
  assert.equal(first.code, 0, first.output);
  const out = plain(first.output);
  assert.match(out, /Dropped the saved report filters \(status setled, from 2026-02-31\): .*start: "2026-02-31" is not/);
  assert.match(out, /Dropped the saved report filters .*statuses\.0: "setled" is not a transaction status/);
  assert.match(out, /no filters \(last 6 months\)/);
  assert.doesNotMatch(out, /ERROR|\.js:\d+|react-reconciler/);
  const second = await runInPty(['report', '--group', group], { db, answer: { when: /q: quit/, input: 'q' } });
  assert.equal(second.code, 0, second.output);
  assert.doesNotMatch(plain(second.output), /Dropped/);
});
