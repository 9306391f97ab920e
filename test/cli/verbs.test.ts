// One verb for "one object": every command that prints one object by its id is `get`
// (as the API's GET), and `show` is its alias, so either word works everywhere.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { runCli } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';

const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { aliases?: string[] }> };

test('every get has a show alias, and no command is named show but the clock (not an object of an id)', () => {
  const ids = Object.keys(manifest.commands);
  const gets = ids.filter((id) => id.endsWith(':get'));
  assert.ok(gets.length >= 9, gets.join(' '));
  for (const id of gets) assert.deepEqual(manifest.commands[id]!.aliases, [id.replace(/:get$/, ':show')], id);
  assert.deepEqual(ids.filter((id) => id.endsWith(':show')), ['clock:show']);
});

test('subscription show and subscription get print the same object', async () => {
  const db = tempDbPath();
  const demo = JSON.parse((await runCli(['init', '--demo', '--json'], { db })).stdout) as { subscription_ids: string[] };
  const id = demo.subscription_ids[0]!;
  const [get, show] = await Promise.all([runCli(['subscription', 'get', id, '--json'], { db }), runCli(['subscription', 'show', id, '--json'], { db })]);
  assert.equal(show.code, 0, show.stderr);
  assert.equal(show.stdout, get.stdout);
});
