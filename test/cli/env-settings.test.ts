// The whole-number settings in the environment (config/env.ts ENV_INTEGERS): unset or
// blank is the default; anything but a whole number in the setting's range is refused,
// naming the variable, the rule and the value — at start, before anything runs, never
// silently replaced by the default.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { assertUserError, runCli } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { checkEnv, ENV_INTEGERS, envInteger, EnvError, type EnvIntegerName } from '../../src/config/env.js';
import { openPlatform } from '../../src/services/platform.js';

const names = Object.keys(ENV_INTEGERS) as EnvIntegerName[];

test('each setting: its default when unset or blank, its bounds accepted, anything else an EnvError naming it', () => {
  assert.ok(names.length >= 6);
  for (const name of names) {
    const [min, max, fallback] = ENV_INTEGERS[name];
    assert.equal(envInteger({}, name), fallback, name);
    assert.equal(envInteger({ [name]: '  ' }, name), fallback, name);
    assert.equal(envInteger({ [name]: String(min) }, name), min, name);
    assert.equal(envInteger({ [name]: ` ${max} ` }, name), max, name);
    for (const bad of [String(min - 1), String(max + 1), '2.5', 'soon', '1e3', '0x10', '+5', '5ms']) {
      assert.throws(
        () => envInteger({ [name]: bad }, name),
        (err: Error) => err instanceof EnvError && err.message === `${name}: must be a whole number from ${min} to ${max} (got ${JSON.stringify(bad)})`,
        `${name}=${bad}`,
      );
    }
  }
});

test('checkEnv names the first bad setting; a good environment passes', () => {
  assert.doesNotThrow(() => checkEnv({ PAYCTL_PG_WRITERS: '2', PAYCTL_WEBHOOK_LEASE_MS: '3000', OTHER: 'x' }));
  assert.throws(
    () => checkEnv({ PAYCTL_PG_WRITERS: '2', PAYCTL_CLOCK_ANSWER_MS: '-1' }),
    (err: Error) => err instanceof EnvError && err.message === 'PAYCTL_CLOCK_ANSWER_MS: must be a whole number from 0 to 86400000 (got "-1")',
  );
});

test('openPlatform refuses a bad setting before it opens the store: no database file is made', async () => {
  const db = tempDbPath();
  await assert.rejects(openPlatform({ db, env: { PAYCTL_FORK_ANSWER_MS: 'ten' } }), /PAYCTL_FORK_ANSWER_MS: must be a whole number/);
  assert.equal(existsSync(db), false);
});

test('payctl refuses a bad setting with exit 1 and one line naming it, no stack trace (text and --json)', { timeout: 60_000 }, async () => {
  const db = tempDbPath();
  const serve = await runCli(['serve', '--port', '0'], { db, env: { PAYCTL_WEBHOOK_LEASE_MS: 'soon' } });
  // (oclif folds the line at the terminal's width: compared with the folds undone)
  assertUserError(serve, /PAYCTL_WEBHOOK_LEASE_MS: must be a whole number/);
  assert.match(serve.stderr.replace(/\s*\n\s*›\s*/g, ' '), /PAYCTL_WEBHOOK_LEASE_MS: must be a whole number from 1 to 86400000 \(got "soon"\)/);
  const json = await runCli(['init', '--json'], { db, env: { PAYCTL_PG_WRITERS: '0' } });
  assert.equal(json.code, 1, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), {
    error: { type: 'validation_error', message: 'PAYCTL_PG_WRITERS: must be a whole number from 1 to 32 (got "0")' },
    status: 400,
  });
  assert.equal(existsSync(db), false, 'nothing was made');
});
