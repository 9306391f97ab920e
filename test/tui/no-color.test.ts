// The Ink screens on a real (pseudo-)terminal: coloured there, plain under NO_COLOR, drawn with CI set.
// Ink paints through its own chalk, which does not read NO_COLOR by itself.
import '../helpers/env.js';
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliJson } from '../helpers/cli.js';
import { runInPty, type PtyAnswer } from '../helpers/pty.js';
import { tempDbPath } from '../helpers/platform.js';

// A colour or style code (SGR with a colour: 30–37, 90–97, 38;…); cursor moves are not colour.
const COLOUR = /\u001B\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])(?:;[0-9;]*)?m/; // eslint-disable-line no-control-regex

let db: string;
let group: string;
before(async () => {
  db = tempDbPath();
  const demo = await runCliJson<{ group_id: string }>(['init', '--demo'], { db });
  group = demo.group_id;
});

// The wizard leaves on Ctrl+C, sent once a typed letter is echoed (keys are read raw by then:
// before, the terminal would turn Ctrl+C into a signal).
const screens: { name: string; args: () => string[]; shown: RegExp; leave: PtyAnswer[] }[] = [
  {
    name: 'the onboarding wizard',
    args: () => ['onboard', '--draft', `${db}.draft.json`],
    shown: /Signup form/,
    leave: [{ when: /Signup form/, input: 'x' }, { when: /x(?:\u001B\[[0-9;]*m)*▌/, input: '\u0003' }],
  },
  { name: 'the report browser', args: () => ['report', '--group', group], shown: /q: quit/, leave: [{ when: /q: quit/, input: 'q' }] },
];

for (const s of screens) {
  test(`${s.name}: coloured on a terminal, no colour codes under NO_COLOR`, async () => {
    const coloured = await runInPty(s.args(), { db, unset: ['NO_COLOR', 'FORCE_COLOR'], answer: s.leave });
    assert.equal(coloured.code, 0, coloured.output);
    assert.match(coloured.output, COLOUR, 'colour on a terminal');

    const plain = await runInPty(s.args(), { db, env: { NO_COLOR: '1' }, unset: ['FORCE_COLOR'], answer: s.leave });
    assert.equal(plain.code, 0, plain.output);
    assert.match(plain.output, s.shown);
    assert.doesNotMatch(plain.output, COLOUR);
  });
}

// Ink shows only its last frame when CI is set; a screen opened on a terminal in a CI job (or a
// shell that exports CI) must still draw as it goes, or it looks frozen until it closes.
for (const s of screens) {
  test(`${s.name}: draws on a terminal when CI is set`, async () => {
    const run = await runInPty(s.args(), { db, env: { NO_COLOR: '1', CI: 'true', CONTINUOUS_INTEGRATION: '1' }, unset: ['FORCE_COLOR'], answer: s.leave });
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, s.shown);
  });
}
