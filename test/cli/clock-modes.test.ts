// A sandbox clock's mode from the command line (docs/cli.md, docs/clock.md "Clock modes"):
// `sandbox create --clock-mode frozen [--clock-rate N]`, `clock show --group` showing it,
// exact moves of a frozen clock, `clock set --group G --mode …` changing it, and refusals
// that name the flags typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson, assertUsageError, assertUserError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';

const json = <T = any>(args: string[], db: string) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any
const ANCHOR = '2030-01-15T12:00:00.000Z';

test('sandbox create --clock-mode frozen: shown by create and clock show; advance is exact; clock set --mode changes it', async () => {
  const d = tempDbPath();
  const sb = await json(['sandbox', 'create', '--clock', ANCHOR, '--clock-mode', 'frozen'], d);
  assert.equal(sb.clock, ANCHOR);
  assert.equal(sb.clock_mode, 'frozen');
  const human = await runCli(['sandbox', 'create', '--clock', ANCHOR, '--clock-mode', 'frozen'], { db: d });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /clock .*\(frozen\)/);

  const list = await runCli(['sandbox', 'list'], { db: d, env: { COLUMNS: '200' } });
  assert.match(list.stdout, /frozen/);
  assert.equal((await json<Array<{ clock_mode: string }>>(['sandbox', 'list'], d))[0]!.clock_mode, 'frozen');

  const shown = await json(['clock', 'show', '--group', sb.group_id], d);
  assert.deepEqual([shown.now, shown.mode], [ANCHOR, 'frozen']);
  const words = await runCli(['clock', 'show', '--group', sb.group_id], { db: d });
  assert.match(words.stdout, /frozen/);

  const moved = await json(['clock', 'advance', '1d', '--group', sb.group_id], d);
  assert.equal(moved.now, '2030-01-16T12:00:00.000Z');
  assert.equal(moved.mode, 'frozen');
  assert.equal((await json(['clock', 'show', '--group', sb.group_id], d)).now, '2030-01-16T12:00:00.000Z', 'still there in another process');

  const fast = await json(['clock', 'set', '--group', sb.group_id, '--mode', 'accelerated', '--rate', '60'], d);
  assert.deepEqual([fast.mode, fast.rate], ['accelerated', 60]);
  assert.ok(fast.now >= '2030-01-16T12:00:00.000Z' && fast.now < '2030-01-16T13:00:00.000Z', fast.now);
  const running = await json(['clock', 'set', '2030-02-01T00:00:00Z', '--group', sb.group_id, '--mode', 'running'], d);
  assert.equal(running.mode, 'running');
  assert.ok(running.now.startsWith('2030-02-01T00:00'), running.now);

  const accelerated = await json(['sandbox', 'create', '--clock-mode', 'accelerated', '--clock-rate', '3600'], d);
  assert.deepEqual([accelerated.clock_mode, accelerated.clock_rate], ['accelerated', 3600]);
  assert.equal((await json(['sandbox', 'create'], d)).clock_mode, 'running', 'the CLI default stays running');
});

test('refusals name the flags: an unknown mode, a rate without accelerated, a mode without --group', async () => {
  const d = tempDbPath();
  assertUsageError(await runCli(['sandbox', 'create', '--clock-mode', 'paused'], { db: d }), /clock-mode/);
  assertUserError(await runCli(['sandbox', 'create', '--clock-mode', 'frozen', '--clock-rate', '60'], { db: d }), /--clock-rate: goes only with mode accelerated/);
  assertUserError(await runCli(['sandbox', 'create', '--clock-mode', 'accelerated', '--clock-rate', '999999'], { db: d }), /--clock-rate: must be at most 86400/);
  assertUsageError(await runCli(['clock', 'set', '--mode', 'frozen'], { db: d }), /--group/);
  assertUsageError(await runCli(['clock', 'set'], { db: d }), /TIME/);
  const sb = await json(['sandbox', 'create'], d);
  assertUsageError(await runCli(['clock', 'set', '--group', sb.group_id, '--mode', 'frozen', '--rate', '5'], { db: d }), /--rate goes with --mode accelerated/);
  assert.equal((await json(['clock', 'show', '--group', sb.group_id], d)).mode, 'running', 'nothing changed');
});
