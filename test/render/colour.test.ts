// One colour per status word, and colour only where it can be seen.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { colourEnabled, paint, statusInkColour, statusTone } from '../../src/render/colour.js';
import { inkColourEnv } from '../../src/tui/runtime.js';

describe('status colours', () => {
  const cases: [string, 'green' | 'yellow' | 'red' | undefined][] = [
    ['approved', 'green'],
    ['settled', 'green'],
    ['Approved', 'green'],
    ['partially captured', 'green'],
    ['pending', 'yellow'],
    ['authorized', 'yellow'],
    ['declined', 'red'],
    ['voided', 'red'],
    ['refund', undefined],
  ];
  for (const [status, tone] of cases) it(`${status} → ${tone ?? 'no colour'}`, () => assert.equal(statusTone(status), tone));
});

describe('when colour is used', () => {
  const tty = { isTTY: true };
  const cases: { name: string; stream: { isTTY?: boolean }; env: NodeJS.ProcessEnv; want: boolean }[] = [
    { name: 'a terminal', stream: tty, env: {}, want: true },
    { name: 'piped', stream: { isTTY: false }, env: {}, want: false },
    { name: 'NO_COLOR on a terminal', stream: tty, env: { NO_COLOR: '1' }, want: false },
    { name: 'an empty NO_COLOR is not set', stream: tty, env: { NO_COLOR: '' }, want: true },
    { name: 'TERM=dumb', stream: tty, env: { TERM: 'dumb' }, want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(colourEnabled(c.stream, c.env), c.want));

  it('paint and statusInkColour are plain when the stream is not a terminal', () => {
    assert.equal(paint('declined', 'red', { isTTY: false }), 'declined');
    assert.equal(statusInkColour('declined', { isTTY: false }), undefined);
  });

  it('NO_COLOR becomes FORCE_COLOR=0 for Ink’s chalk; an explicit FORCE_COLOR is kept', () => {
    for (const [env, want] of [
      [{ NO_COLOR: '1' }, '0'],
      [{ NO_COLOR: '1', FORCE_COLOR: '1' }, '1'],
      [{ NO_COLOR: '' }, undefined],
      [{}, undefined],
    ] as [NodeJS.ProcessEnv, string | undefined][]) {
      inkColourEnv(env);
      assert.equal(env.FORCE_COLOR, want, JSON.stringify(env));
    }
  });
});
