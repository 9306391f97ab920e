// test/helpers/wall-clock.ts, the tool that starts each test file at a chosen time of day:
// a test file's process is shifted, so is what it spawns (by the same amount), and the
// test runner's own process and explicit dates are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TOOL = fileURLToPath(new URL('../helpers/wall-clock.js', import.meta.url));
const AT = '2031-05-06T23:59:50Z';

/** What a process started with the tool prints: its time, an explicit date, and the time of a child it spawns. */
function run(env: Record<string, string>): { now: number; fixed: string; child: number } {
  const script = `const { execFileSync } = require('node:child_process');
    const child = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(Date.now()))']).toString());
    console.log(JSON.stringify({ now: new Date().getTime(), fixed: new Date(Date.UTC(2020, 1, 29, 12)).toISOString(), child }));`;
  const { NODE_TEST_CONTEXT: _runner, ...rest } = process.env;
  const out = execFileSync(process.execPath, ['-e', script], { env: { ...rest, NODE_OPTIONS: `--import ${TOOL}`, ...env } }).toString();
  return JSON.parse(out);
}

test('a test file starts at the time asked for; what it spawns shares its shift; explicit dates stay', () => {
  const r = run({ NODE_TEST_CONTEXT: 'child-v8', PAYCTL_TEST_WALL_CLOCK: AT });
  const at = Date.parse(AT);
  assert.ok(r.now >= at && r.now < at + 10_000, new Date(r.now).toISOString());
  assert.ok(r.child >= at && Math.abs(r.child - r.now) < 10_000, `child ${new Date(r.child).toISOString()}`);
  assert.equal(r.fixed, '2020-02-29T12:00:00.000Z');
});

test('a time of day alone is that time today (UTC)', () => {
  const before = new Date().toISOString().slice(0, 10);
  const r = run({ NODE_TEST_CONTEXT: 'child-v8', PAYCTL_TEST_WALL_CLOCK: '12:34:56' });
  const after = new Date().toISOString().slice(0, 10);
  const day = new Date(r.now).toISOString().slice(0, 10);
  assert.ok(day === before || day === after, day);
  assert.match(new Date(r.now).toISOString(), /T12:3[45]:/);
});

test('the test runner itself (no NODE_TEST_CONTEXT) keeps real time; a bad value is refused by name', () => {
  const r = run({ PAYCTL_TEST_WALL_CLOCK: AT });
  assert.ok(Math.abs(r.now - Date.now()) < 10_000);
  assert.throws(
    () => execFileSync(process.execPath, ['-e', '1'], { env: { ...process.env, NODE_OPTIONS: `--import ${TOOL}`, NODE_TEST_CONTEXT: 'child-v8', PAYCTL_TEST_WALL_CLOCK: 'soon' }, stdio: 'pipe' }),
    (err: Error & { stderr: Buffer }) => /PAYCTL_TEST_WALL_CLOCK: not a time of day \(HH:MM:SS\) or an instant: "soon"/.test(err.stderr.toString()),
  );
});
