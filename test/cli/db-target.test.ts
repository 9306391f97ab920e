// What --db / PAYCTL_DB names: a SQLite file, or a PostgreSQL URL — never a URL taken
// as a file path. Other schemes are refused naming --db; the files beside a database
// (profile, access log) go to --data-dir / PAYCTL_DATA_DIR when one is given.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertUserError, runCli } from '../helpers/cli.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';
import { dataDirFrom, dbTargetFrom, DbTargetError, parseDbTarget, redactUrl } from '../../src/config/env.js';

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
