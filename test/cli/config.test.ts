// Profiles: `payctl config set|unset|list`, stored beside the database, and the order a
// command's group is resolved in: --group, then PAYCTL_GROUP, then the profile.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, runCliJson, assertUserError } from '../helpers/cli.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';

let db: string;
let demo: { group_id: string };
let second: { id: string };
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { db, env: { PAYCTL_GROUP: '', ...env } });
const json = async (args: string[], env: Record<string, string> = {}) => {
  const r = await cli([...args, '--json'], env);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  return JSON.parse(r.stdout);
};

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  second = await runCliJson(['group', 'create', '--name', 'Second shop'], { db });
  await runCliJson(['processor', 'create', '--group', second.id, '--type', 'transaction_level'], { db });
});

test('config set group is saved beside the database and used when --group is not given', async () => {
  const saved = await json(['config', 'set', 'group', second.id]);
  assert.equal(saved.file, path.join(dataDirOf(db), 'config.json'));
  assert.deepEqual(JSON.parse(readFileSync(saved.file, 'utf8')), { group: second.id });
  // processor list requires a group: the profile's is used.
  const list = await json(['processor', 'list']);
  assert.ok(list.length > 0 && list.every((x: { group_id: string }) => x.group_id === second.id));
  // The report also follows the profile (not the first group).
  const r = await cli(['report', '--summary', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).total_count, 0);
});

test('resolution order: --group over PAYCTL_GROUP over the profile; config list shows each source', async () => {
  await json(['config', 'set', 'group', second.id]);
  const fromProfile = await json(['config', 'list']);
  assert.deepEqual(fromProfile.settings.group, { value: second.id, source: 'profile', env: 'PAYCTL_GROUP', saved: second.id });
  assert.match(fromProfile.order, /flag.*environment.*profile.*default/);
  assert.deepEqual(fromProfile.settings['api-url'], { value: 'http://127.0.0.1:4000', source: 'default', env: 'PAYCTL_API_URL', saved: null });

  const fromEnv = await json(['config', 'list'], { PAYCTL_GROUP: demo.group_id });
  assert.equal(fromEnv.settings.group.value, demo.group_id);
  assert.equal(fromEnv.settings.group.source, 'env');
  const envList = await json(['processor', 'list'], { PAYCTL_GROUP: demo.group_id });
  assert.ok(envList.every((x: { group_id: string }) => x.group_id === demo.group_id));
  const flagList = await json(['processor', 'list', '--group', second.id], { PAYCTL_GROUP: demo.group_id });
  assert.ok(flagList.every((x: { group_id: string }) => x.group_id === second.id));

  const human = await cli(['config', 'list'], { PAYCTL_GROUP: demo.group_id });
  assert.match(human.stdout, new RegExp(`group\\s+│ ${demo.group_id} │ PAYCTL_GROUP\\s+│ ${second.id}`));
  assert.match(human.stdout, /order: the command flag \(--group\), then the environment/);
});

test('api-url: set, shown, unset', async () => {
  await json(['config', 'set', 'api-url', 'http://127.0.0.1:4100']);
  assert.deepEqual((await json(['config', 'list'])).settings['api-url'].source, 'profile');
  assert.equal((await json(['config', 'list'], { PAYCTL_API_URL: 'https://pay.example' })).settings['api-url'].value, 'https://pay.example');
  const unset = await json(['config', 'unset', 'api-url']);
  assert.equal(unset.removed, true);
  assert.equal((await json(['config', 'list'])).settings['api-url'].source, 'default');
});

test('bad input: unknown setting (usage, exit 2), bad values and unknown groups (exit 1) change nothing', async () => {
  await json(['config', 'set', 'group', second.id]);
  const file = path.join(dataDirOf(db), 'config.json');
  const before = readFileSync(file, 'utf8');
  const unknown = await cli(['config', 'set', 'colour', 'blue']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /colour/);
  assertUserError(await cli(['config', 'set', 'group', 'not-a-uuid']), /group: "not-a-uuid" is not a group id \(a UUID\)/);
  assertUserError(await cli(['config', 'set', 'group', '01a2079a-3e37-77df-ae73-9434fb548f5f']), /group 01a2079a-3e37-77df-ae73-9434fb548f5f not found/);
  assertUserError(await cli(['config', 'set', 'api-url', 'ftp://x']), /api-url: "ftp:\/\/x" is not an http or https URL/);
  assert.equal(readFileSync(file, 'utf8'), before);
  // A stale group in the environment is named with where it came from.
  const stale = await cli(['processor', 'list'], { PAYCTL_GROUP: '01a2079a-3e37-77df-ae73-9434fb548f5f' });
  assertUserError(stale, /not found/);
  // oclif wraps long error lines at the terminal width.
  assert.match(stale.stderr.replace(/\s*\n ›\s+/g, ' '), /group 01a2079a-3e37-77df-ae73-9434fb548f5f not found \(the group set in PAYCTL_GROUP\)/);
  // A broken profile file is reported, not a stack trace.
  writeFileSync(file, '{nope');
  const broken = await cli(['config', 'list']);
  assertUserError(broken, /config\.json is not valid[\s›]+JSON/);
  assert.match(broken.stderr.replace(/\s*\n ›\s+/g, ' '), /config\.json is not valid JSON: fix or remove it/);
  writeFileSync(file, before);
});

test('init --demo makes the demo group the default: list commands work without --group', async () => {
  const fresh = tempDbPath();
  const demoOut = await runCli(['init', '--demo'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.equal(demoOut.code, 0, demoOut.stderr);
  const demoGroup = /Demo group:\s+(\S+)/.exec(demoOut.stdout)![1]!;
  assert.match(demoOut.stdout, new RegExp(`Default group:\\s+${demoGroup} \\(saved in .*config\\.json`));
  assert.deepEqual(JSON.parse(readFileSync(path.join(dataDirOf(fresh), 'config.json'), 'utf8')), { group: demoGroup });
  for (const args of [['events', 'list'], ['invoice', 'list'], ['subscription', 'list'], ['processor', 'list']]) {
    const r = await runCli([...args, '--json'], { db: fresh, env: { PAYCTL_GROUP: '' } });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  // Run again, it keeps a default that is set (here: another group the user chose).
  const other = await runCliJson(['group', 'create', '--name', 'Chosen'], { db: fresh });
  await runCliJson(['config', 'set', 'group', other.id], { db: fresh });
  const again = await runCli(['init', '--demo'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.doesNotMatch(again.stdout, /Default group/);
  assert.equal(JSON.parse(readFileSync(path.join(dataDirOf(fresh), 'config.json'), 'utf8')).group, other.id);
});

test('the first group create makes its group the default; later ones do not', async () => {
  const fresh = tempDbPath();
  await runCliJson(['init'], { db: fresh });
  const first = await runCli(['group', 'create', '--name', 'First'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.equal(first.code, 0, first.stderr);
  const id = /Created group (\S+)/.exec(first.stdout)![1]!;
  assert.match(first.stdout, /Default group:/);
  const second = await runCli(['group', 'create', '--name', 'Second'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.doesNotMatch(second.stdout, /Default group:/);
  assert.equal(JSON.parse(readFileSync(path.join(dataDirOf(fresh), 'config.json'), 'utf8')).group, id);
});

test('without a profile or PAYCTL_GROUP, a command that needs a group says how to give one (exit 2)', async () => {
  const fresh = tempDbPath();
  await runCliJson(['init'], { db: fresh });
  const r = await runCli(['processor', 'list'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.equal(r.code, 2);
  const line = r.stderr.replace(/\s*\n ›\s+/g, ' ');
  assert.match(line, /no group given: pass --group GROUP_ID, or set a default with `payctl config set group GROUP_ID`/);
  assert.doesNotMatch(r.stderr, /Missing required flag/);
  assert.ok(!existsSync(path.join(dataDirOf(fresh), 'config.json')));
  // Under --json: one usage_error object.
  const j = await runCli(['processor', 'list', '--json'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.equal(j.code, 2);
  assert.equal(JSON.parse(j.stdout).error.type, 'usage_error');
});
