// The fast start (src/cli/fast-start.ts): a command named on the command line is run
// from the command bundle with its code cache, loading no module it does not need
// (checked with a trace of every module the process loads, never with a timing); help,
// topics and mistyped commands still go through oclif's own start with its plugins.
import '../helpers/env.js';
import { isAscii } from 'node:buffer';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, runCliJson } from '../helpers/cli.js';
import { tempDbPath, testStore } from '../helpers/platform.js';
import { packageRoot } from '../../src/lib/paths.js';
import { commandFor, freshBundle } from '../../src/cli/fast-start.js';
import { BUNDLE_FILE, writeBundle } from '../../src/cli/bundle.js';

const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'oclif.manifest.json'), 'utf8')) as Parameters<typeof commandFor>[0];
const bundleFile = path.join(packageRoot, 'dist', BUNDLE_FILE);
const tracer = path.join(packageRoot, 'dist', 'test', 'helpers', 'module-trace.js');

/** The store's driver as the modules it loads (the suite's store), and the other store's driver, never loaded. */
const DRIVER =
  testStore === 'postgres'
    ? { modules: ['pg', 'pg-connection-string', 'pg-int8', 'pg-pool', 'pg-protocol', 'pg-types', 'postgres-array', 'postgres-bytea', 'postgres-date', 'postgres-interval', 'xtend'], other: 'sqlite3' }
    : { modules: ['bindings', 'file-uri-to-path', 'sqlite3'], other: 'pg' };

let db: string;
const dirs: string[] = [];
before(async () => {
  // The build writes the bundle; a plain `tsc` since then leaves it stale (and unused): write it afresh.
  if (!freshBundle(packageRoot)) await writeBundle(packageRoot);
  db = tempDbPath();
  await runCliJson(['init', '--demo'], { db });
});
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every module file `payctl args` loads (ES modules and CommonJS), as paths. */
async function modulesLoadedBy(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; code: number; files: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-trace-'));
  dirs.push(dir);
  const out = path.join(dir, 'trace.txt');
  writeFileSync(out, '');
  const r = await runCli(args, { db, env: { ...env, MODULE_TRACE_FILE: out, NODE_OPTIONS: `--import=${tracer}` } });
  const files = [...new Set(readFileSync(out, 'utf8').split('\n').filter(Boolean))].map((u) => (u.startsWith('file:') ? new URL(u).pathname : u));
  return { stdout: r.stdout, code: r.code, files };
}

/** node_modules/@scope/name/… → @scope/name; a payctl file → dist/…; bin/run.js → bin/run.js. */
function owner(file: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (m) return m[1]!;
  return path.relative(packageRoot, file);
}

test('commandFor: the longest run of words that names a command, with the arguments after it', () => {
  assert.deepEqual(commandFor(manifest, ['report', '--type', 'count', '--json'])?.rest, ['--type', 'count', '--json']);
  assert.equal(commandFor(manifest, ['group', 'list', '--json'])?.command.id, 'group:list');
  assert.equal(commandFor(manifest, ['group:list'])?.command.id, 'group:list');
  // An alias starts on the fast path too: `show` is `get`.
  assert.deepEqual(commandFor(manifest, ['subscription', 'show', 'S1', '--json']), { command: manifest.commands['subscription:get'], rest: ['S1', '--json'] });
  assert.equal(commandFor(manifest, ['events:show', 'E1'])?.command.id, 'events:get');
  assert.equal(commandFor(manifest, ['webhook', 'fault', 'add', '--endpoint', 'e'])?.command.id, 'webhook:fault:add');
  const get = commandFor(manifest, ['transaction', 'get', 'T1', '--json'])!;
  assert.equal(get.command.id, 'transaction:get');
  assert.deepEqual(get.rest, ['T1', '--json'], 'an argument stays an argument');
  // What oclif answers itself: help anywhere, a topic, a mistyped or a plugin's command, no command.
  for (const argv of [['report', '--help'], ['group', 'list', '-h'], ['group'], ['grup', 'list'], ['help'], ['autocomplete', 'bash'], []]) {
    assert.equal(commandFor(manifest, argv), undefined, argv.join(' '));
  }
});

test("report --type count --json loads the bundle and the store's driver, nothing else: no command module, no plugin, no framework file, not the other store's driver", async () => {
  assert.ok(freshBundle(packageRoot), 'the bundle is as new as dist/');
  const r = await modulesLoadedBy(['report', '--type', 'count', '--json']);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(typeof JSON.parse(r.stdout).total_count, 'number');
  const owners = [...new Set(r.files.map(owner))].sort();
  // The start itself: bin/run.js, the manifest check and the fast start; the store's native driver.
  assert.deepEqual(
    owners.filter((o) => !o.startsWith('dist/test/')),
    ['bin/run.js', 'dist/src/cli/bundle.js', 'dist/src/cli/fast-start.js', 'dist/src/cli/manifest.js', ...DRIVER.modules].sort(),
  );
  // The code cache is written beside the bundle by the first run, and used by the next.
  assert.ok(statSync(`${bundleFile}.cache`).size > 0);
});

test('without the bundle (PAYCTL_NO_BUNDLE, or a bundle older than dist/), the one command module is imported; still no plugin', async () => {
  const r = await modulesLoadedBy(['report', '--type', 'count', '--json'], { PAYCTL_NO_BUNDLE: '1' });
  assert.equal(r.code, 0, r.stdout);
  assert.equal(typeof JSON.parse(r.stdout).total_count, 'number');
  const owners = new Set(r.files.map(owner));
  assert.deepEqual([...owners].filter((o) => o.startsWith('dist/commands/')), ['dist/commands/report.js']);
  for (const unneeded of ['@oclif/plugin-help', '@oclif/plugin-autocomplete', 'cli-table3', 'ink', 'react', 'pdfkit', 'polka', DRIVER.other, 'nodemailer']) {
    assert.ok(!owners.has(unneeded), `${unneeded} is not loaded`);
  }
  assert.ok(![...owners].some((o) => /^dist\/src\/(http|tui|pdf)\//.test(o)), [...owners].join(' '));
});

test('help, a topic, a mistyped command and plugin help still go through oclif', async () => {
  const help = await runCli(['report', '--help'], { db });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /USAGE\n {2}\$ payctl report/);
  const topic = await runCli(['group'], { db });
  assert.match(topic.stdout, /COMMANDS\n {2}group create .*\n {2}group list /);
  const typo = await runCli(['grup', 'list'], { db });
  assert.equal(typo.code, 127);
  assert.match(typo.stderr, /grup list is not a payctl command/);
  const plugin = await runCli(['help', 'group', 'list'], { db });
  assert.equal(plugin.code, 0);
  assert.match(plugin.stdout, /\$ payctl group list/);
  // A found command's errors keep their exit codes and --json shape on the fast path.
  const usage = await runCli(['report', '--type', 'counts', '--json'], { db });
  assert.equal(usage.code, 2);
  const missing = await runCli(['transaction', 'get', '01900000-0000-7000-8000-000000000000', '--json'], { db });
  assert.equal(missing.code, 1);
  assert.equal(JSON.parse(missing.stdout).error.type, 'not_found');
});

test('the bundle is ASCII (read as a one-byte string), its package-kept characters escaped', () => {
  const bytes = readFileSync(bundleFile);
  assert.ok(isAscii(bytes), `a byte above 127 at ${bytes.findIndex((b) => b > 127)}`);
  // ansis strips escape sequences with a regular expression holding a raw U+009B (CSI): kept as an escape.
  assert.match(bytes.toString('latin1'), /\[\x1b\\u009b\]/);
});

test('a code cache V8 refuses is replaced, and the command still runs', async () => {
  writeFileSync(`${bundleFile}.cache`, 'not a code cache');
  const r = await runCli(['report', '--type', 'count', '--json'], { db });
  assert.equal(r.code, 0, r.stderr);
  // Rewritten, and marked with the bundle it belongs to (V8 itself checks only the source's length).
  const st = statSync(bundleFile);
  assert.equal(readFileSync(`${bundleFile}.cache`).subarray(0, 80).toString('latin1').split('\n')[0], `payctl-bundle ${st.size} ${st.mtimeMs}`);
});

test('freshBundle: a bundle older than any compiled file is not used; none is none', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'payctl-bundle-'));
  dirs.push(root);
  mkdirSync(path.join(root, 'dist', 'src', 'lib'), { recursive: true });
  mkdirSync(path.join(root, 'dist', 'commands'), { recursive: true });
  const module = path.join(root, 'dist', 'src', 'lib', 'x.js');
  writeFileSync(module, '');
  writeFileSync(path.join(root, 'tsconfig.json'), '{}');
  assert.equal(freshBundle(root), undefined);
  const bundle = path.join(root, 'dist', BUNDLE_FILE);
  writeFileSync(bundle, '');
  utimesSync(module, 1_000_000, 1_000_000);
  utimesSync(bundle, 2_000_000, 2_000_000);
  assert.equal(freshBundle(root), bundle);
  utimesSync(module, 3_000_000, 3_000_000);
  assert.equal(freshBundle(root), undefined, 'a module compiled after the bundle');
  // With tsc's build info (incremental), its time alone says whether a compile ran since: one stat, no walk.
  const info = path.join(root, 'dist', '.tsbuildinfo');
  writeFileSync(info, '');
  utimesSync(info, 1_500_000, 1_500_000);
  assert.equal(freshBundle(root), bundle, 'the build info is older than the bundle');
  utimesSync(info, 2_500_000, 2_500_000);
  assert.equal(freshBundle(root), undefined, 'a compile after the bundle');
  // An installed package (no tsconfig.json): nothing compiles there, the bundle is used as shipped.
  rmSync(path.join(root, 'tsconfig.json'));
  assert.equal(freshBundle(root), bundle);
});
