// What --db / PAYCTL_DB names: a SQLite file, or a PostgreSQL URL — never a URL taken
// as a file path. Other schemes are refused naming --db; the files beside a database
// (profile, access log) go to --data-dir / PAYCTL_DATA_DIR when one is given.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertUserError, runCli } from '../helpers/cli.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';
import { dataDirFrom, dbOrigin, dbTargetFrom, DbTargetError, defaultDbPath, findDbUpward, parseDbTarget, redactUrl } from '../../src/config/env.js';

const emptyDir = () => mkdtempSync(path.join(os.tmpdir(), 'payctl-dbtarget-'));

test('parseDbTarget: postgres:// and postgresql:// select PostgreSQL, a path is a SQLite file, other schemes are refused', () => {
  assert.deepEqual(parseDbTarget('postgres://u:p@h:5432/db'), { kind: 'postgres', url: 'postgres://u:p@h:5432/db' });
  assert.deepEqual(parseDbTarget('POSTGRESQL://h/db'), { kind: 'postgres', url: 'POSTGRESQL://h/db' });
  for (const file of ['./x.db', '/tmp/a.db', 'C:\\data\\payctl.db', ':memory:', 'postgres', 'postgres:x.db']) {
    assert.deepEqual(parseDbTarget(file), { kind: 'sqlite', file }, file);
  }
  for (const [value, scheme] of [['mysql://h/db', 'mysql'], ['file:///tmp/x.db', 'file'], ['sqlite://x.db', 'sqlite'], ['http://h', 'http']]) {
    assert.throws(() => parseDbTarget(value!), (err: Error) => err instanceof DbTargetError && err.message.startsWith('--db ') && err.message.includes(`${scheme}://`), value);
  }
  assert.throws(() => parseDbTarget('postgres://h:notaport/db'), (err: Error) => err instanceof DbTargetError && /--db .* is not a valid URL/.test(err.message));
  assert.throws(() => parseDbTarget(''), /--db is empty/);
});

test('the password of a URL never shows in a message', () => {
  assert.equal(redactUrl('postgres://payctl:s3cret@db:5432/x'), 'postgres://payctl:***@db:5432/x');
  assert.equal(redactUrl('postgres://db:5432/x'), 'postgres://db:5432/x');
  assert.throws(() => parseDbTarget('mysql://root:hunter2@h/db'), (err: Error) => !err.message.includes('hunter2'));
});

test('dbTargetFrom: the flag, else PAYCTL_DB (named in errors), else the default file', () => {
  assert.deepEqual(dbTargetFrom('a.db', { PAYCTL_DB: 'postgres://h/x' }), { kind: 'sqlite', file: 'a.db' });
  assert.deepEqual(dbTargetFrom(undefined, { PAYCTL_DB: 'postgres://h/x' }), { kind: 'postgres', url: 'postgres://h/x' });
  assert.equal(dbTargetFrom(undefined, {}).kind, 'sqlite');
  assert.throws(() => dbTargetFrom(undefined, { PAYCTL_DB: 'redis://h' }), /^Error: --db \(PAYCTL_DB\) redis:\/\/h/);
});

test('the default database is the nearest .payctl/payctl.db upward from the current folder, as git finds .git', () => {
  const project = emptyDir();
  const deep = path.join(project, 'src', 'a', 'b');
  mkdirSync(deep, { recursive: true });
  assert.equal(findDbUpward(deep), undefined);
  assert.equal(defaultDbPath(deep), path.join(deep, '.payctl', 'payctl.db'), 'none upward: a new one in the current folder');
  assert.match(dbOrigin(false, {}, deep), /in the current folder; none exists/);
  mkdirSync(path.join(project, '.payctl'));
  writeFileSync(path.join(project, '.payctl', 'payctl.db'), '');
  assert.equal(findDbUpward(deep), path.join(project, '.payctl', 'payctl.db'));
  assert.equal(defaultDbPath(deep), path.join(project, '.payctl', 'payctl.db'));
  assert.match(dbOrigin(false, {}, deep), /nearest \.payctl\/ above the current folder/);
  assert.match(dbOrigin(false, {}, project), /the default: \.payctl\/payctl\.db in the current folder$/);
  // A nearer one wins; a .payctl folder without a database is passed over.
  mkdirSync(path.join(project, 'src', '.payctl'));
  assert.equal(findDbUpward(deep), path.join(project, '.payctl', 'payctl.db'));
  writeFileSync(path.join(project, 'src', 'a', '.payctl-not'), '');
  mkdirSync(path.join(project, 'src', 'a', '.payctl'));
  writeFileSync(path.join(project, 'src', 'a', '.payctl', 'payctl.db'), '');
  assert.equal(findDbUpward(deep), path.join(project, 'src', 'a', '.payctl', 'payctl.db'));
  // --db and PAYCTL_DB still win, and say so.
  assert.equal(dbOrigin(true, { PAYCTL_DB: 'x.db' }, deep), 'the --db flag');
  assert.equal(dbOrigin(false, { PAYCTL_DB: 'x.db' }, deep), 'the environment (PAYCTL_DB)');
});

test('run from a subfolder, payctl uses the project database; config list says which and why; an empty one is named', async () => {
  const project = emptyDir();
  const sub = path.join(project, 'web', 'src');
  mkdirSync(sub, { recursive: true });
  const noDb = { PAYCTL_DB: '', PAYCTL_GROUP: '' }; // childEnv merges: an empty value is unset for payctl
  const init = await runCli(['init', '--demo', '--json'], { cwd: project, env: noDb });
  assert.equal(init.code, 0, init.stderr);
  const { group_id: group, db } = JSON.parse(init.stdout) as { group_id: string; db: string };
  assert.equal(path.resolve(project, db), path.join(project, '.payctl', 'payctl.db'));
  const groups = await runCli(['group', 'list', '--json'], { cwd: sub, env: noDb });
  assert.equal(groups.code, 0, groups.stderr);
  assert.deepEqual((JSON.parse(groups.stdout) as { id: string }[]).map((g) => g.id), [group]);
  assert.equal(existsSync(path.join(sub, '.payctl')), false, 'no new database in the subfolder');
  const list = await runCli(['config', 'list', '--json'], { cwd: sub, env: noDb });
  const config = JSON.parse(list.stdout) as { database: { location: string; from: string }; settings: { group: { value: string } } };
  assert.deepEqual(config.database, { location: path.join(project, '.payctl', 'payctl.db'), from: 'the nearest .payctl/ above the current folder (searched upward, as git finds .git)' });
  assert.equal(config.settings.group.value, group, "the project's profile, beside its database");
  const human = await runCli(['config', 'list'], { cwd: sub, env: noDb });
  assert.match(human.stdout, new RegExp(`database: ${path.join(project, '.payctl', 'payctl.db')}\n  from the nearest \.payctl/`));
  const other = path.join(emptyDir(), 'other.db');
  const flagged = JSON.parse((await runCli(['config', 'list', '--json', '--db', other], { cwd: sub, env: noDb })).stdout) as typeof config;
  assert.deepEqual(flagged.database, { location: other, from: 'the --db flag' });
  // A database with no group: the message names the file it opened.
  const none = await runCli(['group', 'list'], { cwd: sub, env: { ...noDb, PAYCTL_DB: other } });
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stderr, new RegExp(`No groups in the database ${other}`));
  const empty = await runCli(['transaction', 'list'], { cwd: sub, env: { ...noDb, PAYCTL_DB: other } });
  assert.equal(empty.code, 2, empty.stderr);
  assert.match(empty.stderr.replace(/\s*›\s*/g, ' '), new RegExp(`no group given: .*; database: ${other}`));
});

test('dataDirFrom: --data-dir, else PAYCTL_DATA_DIR, else beside the SQLite file, or ./.payctl for a URL', () => {
  const sqlite = { kind: 'sqlite', file: '/srv/pay/payctl.db' } as const;
  const pg = { kind: 'postgres', url: 'postgres://h/x' } as const;
  assert.equal(dataDirFrom(sqlite, undefined, {}), '/srv/pay');
  assert.equal(dataDirFrom(pg, undefined, {}), path.join(process.cwd(), '.payctl'));
  assert.equal(dataDirFrom(pg, '/var/payctl', {}), '/var/payctl');
  assert.equal(dataDirFrom(sqlite, undefined, { PAYCTL_DATA_DIR: '/etc/payctl' }), '/etc/payctl');
  assert.equal(dataDirFrom(sqlite, '/a', { PAYCTL_DATA_DIR: '/b' }), '/a');
});

test('--db postgres://… selects PostgreSQL: a server that is not there is one clear line (exit 1), no folder named postgres: appears', async () => {
  const cwd = emptyDir();
  const r = await runCli(['group', 'list', '--db', 'postgres://payctl:s3cret@127.0.0.1:1/payctl'], { cwd });
  assertUserError(r, /--db postgres:\/\/payctl:\*\*\*@127\.0\.0\.1:1\/payctl: cannot connect to[\s›]+PostgreSQL \(connect ECONNREFUSED/);
  assert.doesNotMatch(r.stderr + r.stdout, /s3cret/);
  assert.deepEqual(readdirSync(cwd), [], 'nothing written in the current directory');
});

test('another scheme in --db or PAYCTL_DB is refused naming --db; --json answers one error object', async () => {
  const cwd = emptyDir();
  const flag = await runCli(['init', '--db', 'mysql://root@h/db'], { cwd });
  assertUserError(flag, /--db mysql:\/\/root@h\/db: mysql:\/\/ is not a database payctl opens/);
  const env = await runCli(['group', 'list'], { cwd, env: { PAYCTL_DB: 'sqlite://x.db' } });
  assertUserError(env, /--db.* sqlite:\/\/x\.db: sqlite:\/\//);
  const json = await runCli(['group', 'list', '--json', '--db', 'file:///tmp/x.db'], { cwd });
  assert.equal(json.code, 1);
  const body = JSON.parse(json.stdout) as { error: { type: string; message: string } };
  assert.equal(body.error.type, 'validation_error');
  assert.match(body.error.message, /^--db file:\/\/\/tmp\/x\.db: file:\/\//);
  assert.deepEqual(readdirSync(cwd), []);
});

test('--data-dir holds the profile: init and config set write there, and --group defaults from it', async () => {
  const db = tempDbPath();
  const dataDir = path.join(emptyDir(), 'data');
  const init = await runCli(['init', '--demo', '--json', '--db', db, '--data-dir', dataDir]);
  assert.equal(init.code, 0, init.stderr);
  const group = (JSON.parse(init.stdout) as { group_id: string }).group_id;
  const profile = () => JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8')) as { group?: string; 'api-url'?: string };
  assert.equal(profile().group, group, 'init --demo made its group the default, in the data directory');
  assert.ok(!existsSync(path.join(dataDirOf(db), 'config.json')), 'nothing beside the database');
  const set = await runCli(['config', 'set', 'api-url', 'http://127.0.0.1:4999', '--db', db], { env: { PAYCTL_DATA_DIR: dataDir } });
  assert.equal(set.code, 0, set.stderr);
  assert.equal(profile()['api-url'], 'http://127.0.0.1:4999');
  // Without a --group, a command takes the group of the profile in PAYCTL_DATA_DIR …
  const viaEnv = await runCli(['plan', 'list', '--json', '--db', db], { env: { PAYCTL_DATA_DIR: dataDir } });
  assert.equal(viaEnv.code, 0, viaEnv.stderr);
  // … and finds none beside the database (a URL's default folder is ./.payctl of an empty cwd).
  const beside = await runCli(['plan', 'list', '--json', '--db', db], { env: { PAYCTL_DATA_DIR: '' }, cwd: emptyDir() });
  assert.notEqual(beside.code, 0);
});
