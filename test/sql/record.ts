// `npm run sql:record`: the golden files of every SQL text the stores send
// (test/sql/postgres.sql.jsonl, sqlite.sql.jsonl). Runs the PostgreSQL pass of the suite
// whole (run-postgres.ts's list: every file of postgres-suite.ts, CLI and browser ones
// too, and the tests of PostgreSQL itself) at the oldest version the docs name — every
// PostgreSQL pass checks its texts against this file, so it must hold what the CLI
// children send as well — and the in-process part of it on SQLite (the CLI and browser
// files drive the same services from child processes and take most of the time; the
// SQLite file is for reading diffs, no check holds it), every process recording what it
// sends (helpers/sql-recorder.ts); then writes the distinct texts, sorted. `--collect DIR`
// writes the files from a recording kept earlier; with `--keep` as well, the recording's
// texts are added to what the files hold (a recording of a few test files: the one a
// failed golden check of test/run-postgres.ts left, sql/golden-check.ts). test/sql/texts.test.ts
// parses them; `git diff test/sql` after a change to the store shows every text it changed.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { POSTGRES_SUITE } from '../postgres-suite.js';
import { writeGolden } from './golden.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const recorder = pathToFileURL(path.join(dist, 'helpers', 'sql-recorder.js')).href;

function run(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  });
}

const args = process.argv.slice(2);
let dir: string;
if (args[0] === '--collect' && args[1]) {
  dir = args[1];
} else {
  dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-sql-'));
  process.stdout.write(`# recording into ${dir}\n`);
  const env = { PAYCTL_SQL_RECORD: dir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${recorder}`.trim() };
  const files = POSTGRES_SUITE.filter((f) => !f.startsWith('cli/') && !f.startsWith('browser/')).map((f) => path.join(dist, f));
  const sqlite = await run(['--test', '--test-concurrency=2', '--test-timeout=300000', ...files], env);
  const postgres = await run([path.join(dist, 'run-postgres.js')], { ...env, PAYCTL_TEST_PG_VERSION: '14' });
  // A failing test still sent its SQL; say so, and write what was recorded.
  if (sqlite !== 0 || postgres !== 0) process.stdout.write(`# some tests failed (SQLite ${sqlite}, PostgreSQL ${postgres}): the texts are recorded all the same\n`);
}
const counts = writeGolden(dir, args.includes('--keep'));
process.stdout.write(`# ${counts.postgres} PostgreSQL texts, ${counts.sqlite} SQLite texts\n`);
