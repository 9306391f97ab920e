// `npm run sql:record`: the golden files of every SQL text the stores send
// (test/sql/postgres.sql.jsonl, sqlite.sql.jsonl). Runs the in-process part of the suite
// that runs on both stores (postgres-suite.ts but the CLI and browser files, which drive
// the same services from child processes and take most of the suite's time) once on
// SQLite and once on PostgreSQL at the oldest version the docs name (with the tests of
// PostgreSQL itself, test/postgres), every process of it recording what it sends
// (helpers/sql-recorder.ts); then writes the distinct texts, sorted. `--collect DIR`
// writes the files from a recording kept earlier; with `--keep` as well, the recording's
// texts are added to what the files hold (a recording of a few test files: the one a
// failed golden check of test/run-postgres.ts left, sql/golden-check.ts). test/sql/texts.test.ts
// parses them; `git diff test/sql` after a change to the store shows every text it changed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
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
  const pgOwn = readdirSync(path.join(dist, 'postgres')).filter((f) => f.endsWith('.pgtest.js')).map((f) => path.join(dist, 'postgres', f));
  const sqlite = await run(['--test', '--test-concurrency=2', '--test-timeout=300000', ...files], env);
  const postgres = await run([path.join(dist, 'run-postgres.js'), ...files, ...pgOwn], { ...env, PAYCTL_TEST_PG_VERSION: '14' });
  // A failing test still sent its SQL; say so, and write what was recorded.
  if (sqlite !== 0 || postgres !== 0) process.stdout.write(`# some tests failed (SQLite ${sqlite}, PostgreSQL ${postgres}): the texts are recorded all the same\n`);
}
const counts = writeGolden(dir, args.includes('--keep'));
process.stdout.write(`# ${counts.postgres} PostgreSQL texts, ${counts.sqlite} SQLite texts\n`);
