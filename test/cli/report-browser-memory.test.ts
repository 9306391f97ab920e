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

// The line under the table that says which filters apply (the filter bar's input ends in ▌ instead).
const applied = /status settled\r/;

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
  assert.match(flags.output, /status pending\r/);
  assert.doesNotMatch(flags.output, applied);
});
