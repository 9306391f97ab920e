// A platform over a fresh temporary database, with the demo data loaded.
import './env.js';
import { mkdtempSync } from 'node:fs';
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
  if (process.env.PAYCTL_TEST_STORE === 'postgres') return `${process.env.PAYCTL_TEST_PG_URL}/t_${randomBytes(8).toString('hex')}`;
  return path.join(mkdtempSync(path.join(tmpdir(), 'payctl-test-')), 'payctl.db');
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
