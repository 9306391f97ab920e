// Start-up: the oclif manifest written at build time lists every command,
// help works from it, a stale one is rebuilt (or removed) before use, and `--version`
// answers without the framework in oclif's own format.
import '../helpers/env.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { packageRoot } from '../../src/lib/paths.js';
import { freshenManifest, manifestIsStale, MANIFEST_FILE, writeManifest } from '../../src/cli/manifest.js';

/** Command ids from the compiled files: dist/commands/clock/show.js → clock:show. */
function compiledCommandIds(): string[] {
  const dir = path.join(packageRoot, 'dist', 'commands');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3).split(path.sep).join(':'))
    .sort();
}

test('the manifest lists every compiled command with its flags', async () => {
  const count = await writeManifest(packageRoot);
  const manifest = JSON.parse(readFileSync(path.join(packageRoot, MANIFEST_FILE), 'utf8')) as {
    version: string;
    commands: Record<string, { flags: Record<string, unknown>; relativePath: string[]; isESM: boolean }>;
  };
  const pjson = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  assert.equal(manifest.version, pjson.version);
  assert.deepEqual(Object.keys(manifest.commands).sort(), compiledCommandIds());
  assert.equal(count, compiledCommandIds().length);
  // Base flags (--db) and the JSON flag come from the shared base command.
  assert.ok('db' in manifest.commands['clock:show']!.flags);
  assert.ok('json' in manifest.commands['clock:show']!.flags);
  // oclif loads a command straight from the manifest only with these two fields.
  assert.deepEqual(manifest.commands['clock:show']!.relativePath, ['dist', 'commands', 'clock', 'show.js']);
  assert.equal(manifest.commands['clock:show']!.isESM, true);
});

test('help works from the manifest: the root lists topics and commands, a command shows its flags', async () => {
  await writeManifest(packageRoot);
  const root = await runCli(['--help']);
  assert.equal(root.code, 0, root.stderr);
  for (const word of ['TOPICS', 'clock', 'COMMANDS', 'serve', 'init']) assert.match(root.stdout, new RegExp(`\\b${word}\\b`));
  const show = await runCli(['clock', 'show', '--help']);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /--db=<value>/);
  assert.match(show.stdout, /\$ payctl clock show/);
});

test('--version prints oclif’s line (name/version platform-arch node-version) without loading oclif', async () => {
  const pjson = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const r = await runCli(['--version']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, `${pjson.name}/${pjson.version} ${process.platform}-${process.arch} node-${process.version}\n`);
});

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A package root with one compiled command and a manifest, with chosen modification times. */
function fakeRoot(opts: { manifestAt?: number; commandAt: number; command?: string }): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'payctl-manifest-'));
  roots.push(root);
  const commands = path.join(root, 'dist', 'commands');
  mkdirSync(commands, { recursive: true });
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'fake', version: '1.0.0', type: 'module', oclif: { bin: 'fake', commands: './dist/commands' } }),
  );
  // A checkout (a tsconfig.json, no build info yet): the compiled files' times are compared.
  writeFileSync(path.join(root, 'tsconfig.json'), '{}');
  const file = path.join(commands, 'hello.js');
  writeFileSync(file, opts.command ?? 'export default class Hello { static run() {} }\n');
  utimesSync(file, opts.commandAt, opts.commandAt);
  if (opts.manifestAt !== undefined) {
    const m = path.join(root, MANIFEST_FILE);
    writeFileSync(m, JSON.stringify({ version: '1.0.0', commands: {} }));
    utimesSync(m, opts.manifestAt, opts.manifestAt);
  }
  return root;
}

test('a manifest older than a compiled command is stale; a newer one, or none, is not', () => {
  assert.equal(manifestIsStale(fakeRoot({ manifestAt: 2_000_000, commandAt: 1_000_000 })), false);
  assert.equal(manifestIsStale(fakeRoot({ manifestAt: 1_000_000, commandAt: 2_000_000 })), true);
  // Equal times (npm unpacks every file with one date): not stale.
  assert.equal(manifestIsStale(fakeRoot({ manifestAt: 1_000_000, commandAt: 1_000_000 })), false);
  assert.equal(manifestIsStale(fakeRoot({ commandAt: 2_000_000 })), false);
});

test('a stale manifest that cannot be rebuilt is removed, so oclif finds the commands itself', async () => {
  const root = fakeRoot({ manifestAt: 1_000_000, commandAt: 2_000_000, command: 'throw new Error("half-written");\n' });
  await freshenManifest(root);
  assert.equal(existsSync(path.join(root, MANIFEST_FILE)), false);
});
