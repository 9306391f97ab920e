// docs/testing.md's jest setup ("jest: ES modules and TypeScript, as it has to be set up")
// runs as written: its files (each a block whose info string names the file) and the .mjs
// example (examples/testing/jest, which test/kit/examples.test.ts checks the page shows) are
// written into an empty folder, as a reader's project would be, with jest, ts-jest,
// TypeScript and @jest/globals from this repository's devDependencies and `payctl` linked to
// this repository; then the page's command runs jest there and every test must pass, and
// the type check the page advises (`npx tsc --noEmit`) finds no error.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

const HEADING = '### jest: ES modules and TypeScript, as it has to be set up';
const page = readFileSync(path.join(packageRoot, 'docs', 'testing.md'), 'utf8');

/** The section's files: a ```lang name block is the file `name`, as written. */
function sectionFiles(): Map<string, string> {
  const at = page.indexOf(`\n${HEADING}\n`);
  assert.ok(at >= 0, `docs/testing.md has the section "${HEADING}"`);
  const next = page.indexOf('\n#', at + HEADING.length + 2);
  const section = page.slice(at, next < 0 ? undefined : next);
  return new Map([...section.matchAll(/^```\w+ ([\w.]+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Where a devDependency really is (node_modules may be a link to another checkout's). */
const installed = (name: string): string => realpathSync(path.join(packageRoot, 'node_modules', name));

/** Run `node args…` in the project as a reader would; resolves with the exit code and output (bounded: 3 minutes). */
function runNode(cwd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  // A reader's environment: none of the test run's PAYCTL_* settings (the tests start their own server).
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_') && k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

test("docs/testing.md's jest project (an .mjs example and a TypeScript test, await using included) passes as written", async () => {
  const files = sectionFiles();
  assert.deepEqual([...files.keys()].sort(), ['checkout.test.ts', 'jest.config.js', 'jest.setup.js', 'package.json', 'tsconfig.json']);
  // The package.json shown runs the command this test runs.
  assert.equal(JSON.parse(files.get('package.json')!).scripts.test, 'node --experimental-vm-modules node_modules/jest/bin/jest.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-jest-'));
  try {
    for (const [name, text] of files) writeFileSync(path.join(dir, name), text);
    copyFileSync(path.join(packageRoot, 'examples/testing/jest/payments.test.mjs'), path.join(dir, 'payments.test.mjs'));
    const modules = path.join(dir, 'node_modules');
    mkdirSync(path.join(modules, '@jest'), { recursive: true });
    for (const name of ['jest', 'ts-jest', 'typescript', '@jest/globals']) symlinkSync(installed(name), path.join(modules, name), 'dir');
    symlinkSync(packageRoot, path.join(modules, 'payctl'), 'dir');

    // The page's command (its `test` script), then the type check it advises.
    const r = await runNode(dir, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /PASS \.\/payments\.test\.mjs/, r.out);
    assert.match(r.out, /PASS \.\/checkout\.test\.ts/, r.out);
    assert.match(r.out, /Tests:\s+5 passed, 5 total/, r.out);
    const types = await runNode(dir, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']);
    assert.equal(types.code, 0, `npx tsc --noEmit: ${types.out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
