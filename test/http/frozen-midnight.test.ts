// The Done-when test of frozen clocks (docs/testing.md "Does a test depend on the hour it
// runs?"): frozen-midnight.run.ts run with the wall clock started at 23:59:57 UTC by the
// wall-clock tool (test/helpers/wall-clock.ts), so it crosses midnight whatever the hour;
// started earlier when its set-up (a server with demo data) took it past midnight first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TOOL = fileURLToPath(new URL('../helpers/wall-clock.js', import.meta.url));
const RUN = fileURLToPath(new URL('./frozen-midnight.run.js', import.meta.url));

test('a frozen sandbox run across 00:00 UTC (wall clock from 23:59:57) settles only when moved', () => {
  // The inner runner starts the file as its own test child (NODE_TEST_CONTEXT), which the tool shifts.
  const { PAYCTL_TEST_WALL_SHIFT_MS: _shift, NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const run = (at: string) =>
    spawnSync(process.execPath, ['--test', '--test-reporter=tap', RUN], {
      env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import ${TOOL}`.trim(), PAYCTL_TEST_WALL_CLOCK: at },
      encoding: 'utf8',
      timeout: 120_000,
    });
  let r = run('23:59:57');
  for (const earlier of ['23:59:45', '23:59:15']) if (r.status !== 0 && /TOO_LATE/.test(r.stdout)) r = run(earlier);
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /# pass 1/);
});
