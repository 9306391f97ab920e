// A platform over a fresh temporary database, with the demo data loaded.
import './env.js';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import type { Env } from '../../src/config/env.js';

/**
 * A fresh database: a SQLite file in a new temp folder, or, when the suite runs on
 * PostgreSQL (test/run-postgres.ts sets PAYCTL_TEST_STORE), a new database on the test
 * cluster (the store makes it on first open).
 */
export function tempDbPath(): string {
  if (process.env.PAYCTL_TEST_STORE === 'postgres') return `${process.env.PAYCTL_TEST_PG_URL}/t_${randomBytes(6).toString('hex')}`;
  return path.join(mkdtempSync(path.join(tmpdir(), 'payctl-test-')), 'payctl.db');
}

/** Whether `db` names a PostgreSQL database (a URL) rather than a SQLite file. */
export const isPgUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/**
 * The folder of the files that sit beside a database (profile, access log, drafts): a
 * SQLite file's own folder, or, for a PostgreSQL database, a temp folder named after the
 * database (what `--data-dir` / PAYCTL_DATA_DIR is set to for it: the same in every
 * process, so a CLI child and the test read one profile).
 */
export function dataDirOf(db: string): string {
  if (!isPgUrl(db)) return path.dirname(path.resolve(db));
  // As short as a SQLite test folder's path: messages that print it wrap alike.
  const dir = path.join(tmpdir(), `payctl-${new URL(db).pathname.slice(1) || 'postgres'}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Whether the database exists: the SQLite file, or the PostgreSQL database on its server. */
export async function databaseExists(db: string): Promise<boolean> {
  if (!isPgUrl(db)) return existsSync(db);
  const url = new URL(db);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

/** The store the suite runs on. */
export const testStore = process.env.PAYCTL_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** `env` replaces process.env for the platform (e.g. PAYCTL_SMTP_URL of a test SMTP server). */
export async function tempPlatform(env?: Env): Promise<Platform> {
  return openPlatform({ db: tempDbPath(), ...(env ? { env } : {}) });
}

export async function demoPlatform(opts: { env?: Env } = {}): Promise<{ p: Platform; demo: DemoOutput; dbPath: string }> {
  const dbPath = tempDbPath();
  const p = await openPlatform({ db: dbPath, ...(opts.env ? { env: opts.env } : {}) });
  const demo = await seedDemo(p);
  return { p, demo, dbPath };
}
