// Every ```sh block of README.md and docs/*.md runs as written, against a demo database,
// the way a reader would type it: `payctl` is bin/payctl first on PATH, the working
// directory a fresh folder where `payctl init --demo` ran. The convention (which blocks
// run, `exit=N`, `server`) is written in docs/README.md, "Examples are tested".
// The blocks themselves run in examples-N.test.ts (test/docs/run-examples.ts); this file
// holds the checks of the pages' text.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { commandsOutsideSh, docExamples, docFiles, noRunBlocks, payctlCommands } from './extract.js';

test('a new page in docs/ is picked up, and the examples say how to type payctl', () => {
  const files = docFiles(packageRoot);
  assert.ok(files.includes('README.md'));
  for (const f of readdirSync(path.join(packageRoot, 'docs'))) if (f.endsWith('.md')) assert.ok(files.includes(`docs/${f}`), f);
  for (const file of files) {
    for (const ex of docExamples(readFileSync(path.join(packageRoot, file), 'utf8'))) {
      assert.doesNotMatch(ex.script, /\bnpx payctl\b|bin\/run\.js/, `${file}:${ex.line}: type plain \`payctl\``);
    }
  }
});

test('no command a reader would type hides outside a ```sh block', () => {
  const commands = payctlCommands(packageRoot);
  const hidden: string[] = [];
  for (const file of docFiles(packageRoot)) {
    const lines = readFileSync(path.join(packageRoot, file), 'utf8').split('\n');
    for (const n of commandsOutsideSh(lines.join('\n'), commands)) hidden.push(`${file}:${n}: ${lines[n - 1]!.trim()}`);
  }
  assert.deepEqual(hidden, [], 'make these ```sh blocks (```sh no-run if they cannot run here), or split the output from the command');
});

/**
 * Why a ```sh no-run block cannot run in this test: one of its commands must match one,
 * or the block run (```sh, or ```sh server against the test's own server).
 */
const NO_RUN_REASONS: Array<{ why: string; matches: RegExp }> = [
  { why: 'a server in the foreground (or in the background of the reader\'s shell) runs until Ctrl-C; ```sh server blocks get one from the test', matches: /^(npx )?payctl serve\b/ },
  { why: 'follows a live stream (log, events, forwards) until Ctrl-C', matches: /^payctl (logs tail|listen)\b|\bcurl -N\b|\/events\/stream\b/ },
  { why: 'an Ink screen that waits for keys: test/tui drives them under a pseudo-terminal', matches: /^payctl (onboard|report)(\s+--resume\s+\S+)?\s*(#.*)?$/ },
  { why: 'npm and git act on the repository or the registry (npm test runs this very test; CI runs npm ci: .ci/run)', matches: /^(npm|git)\s|^BENCH_\w+=\S+ npm / },
  { why: 'needs a PostgreSQL server (test/run-postgres.ts starts one for the PostgreSQL suite)', matches: /postgres:\/\/|^createuser\b|run-postgres\.js/ },
  { why: 'a synopsis: [optional] parts and alternatives, not one command line', matches: /\s\[--[^\]]+\]|\(--\S+ \S+ \|/ },
  { why: 'a call whose answer is a simulated timeout, on a sandbox of the reader\'s (docs/faults.md; test/http covers Payctl-Simulate)', matches: /Payctl-Simulate: timeout_after_commit/ },
  { why: 'the metrics port of a server started with --metrics (a second listener; test/http/metrics covers it)', matches: /:9464\/metrics\b/ },
  { why: 'scenario files of the repository checkout (examples/) or of the reader\'s own recording; the page\'s "Try it" block runs one against the test\'s server', matches: /^payctl scenario (run|record)\b/ },
  { why: 'a placeholder the reader fills (<…>), or the reader\'s own program or test suite', matches: /<[^>]+>|^node (receiver\.js|--test test\/)/ },
];

test('every ```sh no-run block has a reason it cannot run here', () => {
  const unexplained: string[] = [];
  for (const file of docFiles(packageRoot)) {
    for (const b of noRunBlocks(readFileSync(path.join(packageRoot, file), 'utf8'))) {
      // One command that cannot run keeps its block from running (the others need it: a server, a database).
      if (!b.commands.some((c) => NO_RUN_REASONS.some((r) => r.matches.test(c)))) unexplained.push(`${file}:${b.line}: ${b.commands.join(' ; ')}`);
    }
  }
  assert.deepEqual(unexplained, [], 'make these run (```sh, or ```sh server with the placeholders of docs/README.md), or add the reason they cannot to NO_RUN_REASONS');
});

test('every link of README.md and docs/ to a file names one in the repository', () => {
  const broken: string[] = [];
  // The benchmark and reliability records too (not run as examples): docs/benchmarks/ holds the history of BENCHMARKS.md.
  const records = ['BENCHMARKS.md', 'RELIABILITY.md', ...readdirSync(path.join(packageRoot, 'docs', 'benchmarks')).filter((f) => f.endsWith('.md')).map((f) => `docs/benchmarks/${f}`)];
  for (const file of [...docFiles(packageRoot), ...records]) {
    const text = readFileSync(path.join(packageRoot, file), 'utf8').replace(/^(`{3,}|~{3,})[^]*?^\1/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
      const local = path.resolve(path.dirname(path.join(packageRoot, file)), decodeURI(target!.split('#')[0]!));
      if (!local.startsWith(packageRoot + path.sep) || !existsSync(local)) broken.push(`${file}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('blocks are read by their info string', () => {
  const md = [
    '```sh', 'payctl a', '```',
    '```text', 'payctl b', '```',
    '```sh exit=2', 'payctl c', '```',
    '````md', '```sh', 'payctl nested', '```', '````',
    '```sh server', 'payctl d', '```',
    '```console', '$ payctl e', '```',
    '```sh no-run', 'payctl f', '```',
  ].join('\n');
  assert.deepEqual(docExamples(md), [
    { line: 2, script: 'payctl a', exit: 0, server: false },
    { line: 8, script: 'payctl c', exit: 2, server: false },
    { line: 16, script: 'payctl d', exit: 0, server: true },
  ]);
});

test('the hidden-command lint flags typed lines of text blocks and the first line of others', () => {
  const commands = new Set(['sale', 'serve']);
  const md = [
    '```text', 'payctl serving http://127.0.0.1:4000/api/v1', ' ›   Error: …', '```', // 2-3: output
    '```text', 'payctl sale --amount 1', '```', // 6
    '```', 'x', '$ ls', '```', // 10
    '```console', 'npm test', '```', // 13
    '```json', '{ "a": "payctl sale" }', '```', // 16: not a command
    '```yaml', 'run: npm test', 'curl -s x', '```', // 19-20: only the first line counts
    '```ts', 'node x.js', '```', // 23
    '```sh', 'payctl sale', 'curl x', '```',
    '```sh no-run', 'payctl serve', '```',
    '````md', '```text', 'payctl sale', '```', '````', // 34: the outer block is md, first line a fence
  ].join('\n');
  assert.deepEqual(commandsOutsideSh(md, commands), [6, 10, 13, 23]);
});
