// The store-dependent tests again, on PostgreSQL: one throwaway cluster for the run
// (helpers/pg-cluster.ts), then the same test files with PAYCTL_TEST_STORE=postgres, so
// every database they make (helpers/platform.ts tempDbPath) is a new PostgreSQL
// database. `npm test` runs this after the SQLite run. Arguments: test files to run
// instead of the suite's list, and `--` options for `node --test` in place of its
// defaults (the soaks of `npm run test:reliability` run one at a time, for longer).
// PAYCTL_TEST_PG_VERSION picks the PostgreSQL major version (14, 17 or 18; default 17):
// `npm test` runs the pass on 14 and on 18, the oldest and newest the docs name.
//
// Every process of the run records the SQL texts it sends (helpers/sql-recorder.ts), and
// each text PostgreSQL was sent that the golden file test/sql/postgres.sql.jsonl does not
// hold is listed and parsed at the oldest supported version (sql/golden-check.ts): one that
// does not parse fails the run (any unrecorded one does under PAYCTL_SQL_STRICT=1). Under `npm run sql:record` (PAYCTL_SQL_RECORD set) the run
// records for the new golden file instead.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster } from './helpers/pg-cluster.js';
import { POSTGRES_SUITE } from './postgres-suite.js';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reportUnrecorded } from './sql/golden-check.js';

/** The compiled test folder (this file's). */
const dist = path.dirname(fileURLToPath(import.meta.url));
/** The suite's files, and the tests of PostgreSQL itself (test/postgres/*.pgtest.ts: several servers on one database). */
function suite(): string[] {
  const own = readdirSync(path.join(dist, 'postgres')).filter((f) => f.endsWith('.pgtest.js')).map((f) => path.join(dist, 'postgres', f));
  return [...POSTGRES_SUITE.map((f) => path.join(dist, f)), ...own];
}
const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith('--'));
const named = args.filter((a) => !a.startsWith('--'));
const files = named.length > 0 ? named : suite();
const name = (option: string) => option.split('=')[0];
// --test-force-exit: a file whose tests have all ended exits even if a handle is left (seen
// rarely on PostgreSQL 18 after the dashboard's live browser tests: every test passed and the
// server and browser were closed, yet the process stayed alive until the 5-minute budget).
const defaults = ['--test-concurrency=2', '--test-timeout=300000', '--test-force-exit'].filter((d) => !options.some((o) => name(o) === name(d)));
/** The folder this run records its SQL texts in, unless `npm run sql:record` records them already. */
const checkDir = process.env.PAYCTL_SQL_RECORD ? undefined : mkdtempSync(path.join(os.tmpdir(), 'payctl-sql-check-'));
const recorder = pathToFileURL(path.join(dist, 'helpers', 'sql-recorder.js')).href;
const recording = checkDir
  ? { PAYCTL_SQL_RECORD: checkDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${recorder}`.trim() }
  : {};
const cluster = await startCluster();
process.stdout.write(`# PostgreSQL ${cluster.version} (${cluster.url})\n`);
let code = 1;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--test', ...defaults, ...options, ...files], {
      stdio: 'inherit',
      env: { ...process.env, ...recording, PAYCTL_TEST_STORE: 'postgres', PAYCTL_TEST_PG_URL: cluster.url, PAYCTL_TEST_PG_VERSION: cluster.version },
    });
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  });
} finally {
  await cluster.stop();
}
if (checkDir && !(await reportUnrecorded(checkDir)) && code === 0) code = 1;
process.exit(code);
