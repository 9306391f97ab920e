// payctl clock advance|set hold the bounds of a clock move (docs/decisions.md#clock-moves) on
// the platform clock as on a group's (--group): never backwards, at most 10 years per
// move, real dates in 1970–9999 — a one-line error and exit 1, no stack, the clock unmoved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson, assertUserError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';

const json = <T = any>(args: string[], db: string) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any

test('the platform clock: never backwards, at most 10 years, impossible dates refused; --group the same', async () => {
  const d = tempDbPath();
  const demo = await json(['init', '--demo'], d);
  const offset = async (group?: string) => (await json(['clock', 'show', ...(group ? ['--group', group] : [])], d)).offset_ms as number;
  const before = await offset();

  // Backwards: the platform clock used to move back silently; it now refuses as a group clock does.
  assertUserError(await runCli(['clock', 'set', '2025-01-01'], { db: d }), /time: must not be before the clock's time now[\s\S]*never[\s\S]*moves backwards/);
  // Too far, impossible, out of range, or a duration past 2^53 ms.
  for (const args of [
    ['clock', 'advance', '100000000d'],
    ['clock', 'advance', '99999999999999999999d'],
    ['clock', 'advance', '3660d'],
    ['clock', 'set', '2099-01-01T00:00:00Z'],
    ['clock', 'set', '2027-02-30'],
    ['clock', 'set', '2027-01-01T24:00:00Z'],
    ['clock', 'set', '10000-01-01T00:00:00Z'],
  ]) {
    const r = await runCli(args, { db: d });
    assert.ok(r.code === 1 || r.code === 2, `${args.join(' ')}: exit ${r.code} ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/, 'no stack trace');
    // oclif wraps long messages: compare with the line breaks and markers taken out.
    const said = r.stderr.replace(/\s*\n\s*›?\s*/g, ' ');
    assert.match(said, /at most 10 years|not a real date|no hour 24|is not|too long/, `${args.join(' ')}: ${r.stderr}`);
  }
  assert.ok(Math.abs((await offset()) - before) < 60_000, 'the platform clock did not move');

  for (const args of [['clock', 'advance', '100000000d'], ['clock', 'set', '2027-02-30'], ['clock', 'set', '2020-01-01']]) {
    const r = await runCli([...args, '--group', demo.group_id], { db: d });
    // 1 for a move the rules refuse, 2 for text that is no time at all.
    assert.ok(r.code === 1 || r.code === 2, `${args.join(' ')} --group: exit ${r.code} ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
  }
  // A move within the bounds works.
  const moved = await json(['clock', 'advance', '30d'], d);
  assert.ok(Math.abs(moved.offset_ms - before - 30 * 86_400_000) < 60_000);
});
