// The terminal UIs on the terminal most people have: 80×24, a real pseudo-terminal running
// the real binary. The report browser's table fits the width, the summary view and the
// wizard's review scroll instead of losing their top, several arrow keys in one read each
// move a row, and the wizard's outcome is printed once.
import '../helpers/env.js';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliJson } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';
import { packageRoot } from '../../src/lib/paths.js';

const SIZE = { cols: 80, rows: 24 };
const DOWN = '\u001B[B';
const PAGE_DOWN = '\u001B[6~';
const END = '\u001B[F';
const plain = (s: string) => s.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''); // eslint-disable-line no-control-regex
/** What the screen showed last: the text from the last time `title` was drawn. */
const lastFrame = (output: string, title: string) => {
  const text = plain(output);
  return text.slice(text.lastIndexOf(title));
};
const ROW = /^[› ] (\d{4}-\d\d-\d\d \d\d:\d\d UTC)/;
/** The table's rows are on screen (its first frames show only the headings). */
const LOADED = /\d\d:\d\d UTC[^\n]*\n[^\n]*\d\d:\d\d UTC[^\n]*\n[\s\S]*q: quit/;

let db: string;
let group: string;
before(async () => {
  db = tempDbPath();
  group = (await runCliJson<{ group_id: string }>(['init', '--demo'], { db })).group_id;
  // Months of rows: the summary view is taller than the terminal, the table has pages.
  await runCliJson(['dev', 'seed', '--transactions', '300', '--months', '3', '--group', group], { db });
});

describe('payctl report at 80×24', () => {
  it('fits the table to 80 columns: every row on one line, the hidden columns named', async () => {
    const run = await runInPty(['report', '--group', group], { db, ...SIZE, answer: { when: LOADED, input: 'q' } });
    assert.equal(run.code, 0, run.output);
    const frame = lastFrame(run.output, 'payctl report');
    const lines = frame.split('\n');
    assert.ok(lines.length <= SIZE.rows, `the frame is ${lines.length} lines:\n${frame}`);
    for (const line of lines) assert.ok([...line].length < SIZE.cols, `wider than the terminal: ${line}`);
    assert.match(frame, /^ {2}date\s+status\s+amount\s+method\s*$/m);
    const rows = lines.filter((l) => ROW.test(l));
    assert.ok(rows.length >= 5, frame);
    // A whole row: date, status, amount and payment method, nothing wrapped onto the next line.
    for (const row of rows) assert.match(row, /UTC\s+[a-z_]+\s+-?\$[\d,]+\.\d\d\s+\S.*\S\s*$/);
    assert.match(frame, /source, customer/);
  });

  it('several ↓ in one read move a row each', async () => {
    const run = await runInPty(['report', '--group', group], {
      db,
      ...SIZE,
      answer: [
        { when: LOADED, input: DOWN.repeat(3) },
        { when: /› \S+ \d\d:\d\d UTC/, input: 'q' },
      ],
    });
    assert.equal(run.code, 0, run.output);
    const loaded = LOADED.exec(run.output)!;
    const first = lastFrame(run.output.slice(0, loaded.index + loaded[0].length), 'payctl report');
    const rows = first.split('\n').filter((l) => ROW.test(l)).map((l) => l.slice(2));
    const last = lastFrame(run.output, 'payctl report');
    const selected = last.split('\n').find((l) => l.startsWith('›'));
    assert.ok(rows.length >= 5 && selected, last);
    assert.equal(selected.slice(2), rows[3], 'the fourth row is selected');
  });

  it('the summary view scrolls: it says which lines it shows, and PgDn shows the next ones', async () => {
    const run = await runInPty(['report', '--group', group], {
      db,
      ...SIZE,
      answer: [
        { when: LOADED, input: 's' },
        { when: /lines 1–\d+ of \d+/, input: PAGE_DOWN },
        { when: /lines (?!1–)\d+–\d+ of \d+/, input: 'q' },
      ],
    });
    assert.equal(run.code, 0, run.output);
    const text = plain(run.output);
    const [, shown, total] = /lines 1–(\d+) of (\d+)/.exec(text)!;
    assert.ok(Number(total) > SIZE.rows, `the summary is ${total} lines, taller than the terminal`);
    assert.ok(Number(shown) <= SIZE.rows - 4);
    const [, from] = /lines (\d+)–\d+ of \d+/.exec(text.slice(text.lastIndexOf('lines ')))!;
    assert.ok(Number(from) > 1);
  });
});

describe('payctl onboard at 80×24', () => {
  /** The example entry as a draft for this database's signup form: the wizard opens on its review. */
  async function completeDraft(): Promise<string> {
    const forms = await runCliJson<Array<{ id: string }>>(['signup-form', 'list'], { db });
    const draft = JSON.parse(readFileSync(join(packageRoot, 'data', 'examples', 'signup-entry.json'), 'utf8')) as Record<string, unknown>;
    draft.signup_form_id = forms[0]!.id;
    const file = join(dataDirOf(db), 'complete-draft.json');
    writeFileSync(file, JSON.stringify(draft));
    return file;
  }

  it('the review scrolls (each of several ↓ in one read) to its end, labels its answers by question, and the outcome is printed once', async () => {
    const file = await completeDraft();
    const run = await runInPty(['onboard', '--resume', file], {
      db,
      ...SIZE,
      answer: [
        // ↓ first, END once it has moved the review: keys typed before the wizard reads them raw
        // would go through the terminal's line editing.
        { when: /lines 1–\d+ of \d+/, input: DOWN },
        // Three ↓ in one read (key repeat) move three lines, not one.
        { when: /lines 2–\d+ of \d+/, input: DOWN.repeat(3) },
        { when: /lines 5–\d+ of \d+/, input: END },
        { when: /All rules are met/, input: '\r' },
      ],
    });
    assert.equal(run.code, 0, run.output);
    const text = plain(run.output);
    assert.match(text, /Business name: /, 'answers under their questions\' labels');
    assert.doesNotMatch(text, /business\.business_name: /, 'not under their JSON paths');
    assert.equal(text.match(/Created signup entry/g)?.length, 1, text);
  });

  it('Ctrl+C says once that it left', async () => {
    const file = await completeDraft();
    const run = await runInPty(['onboard', '--resume', file], {
      db,
      ...SIZE,
      answer: [
        { when: /lines 1–\d+ of \d+/, input: DOWN },
        { when: /lines 2–\d+ of \d+/, input: '\u0003' },
      ],
    });
    assert.equal(run.code, 0, run.output);
    assert.equal(plain(run.output).match(/Left the wizard/g)?.length, 1, run.output);
  });
});
