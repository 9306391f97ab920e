// A platform over a fresh temporary database, with the demo data loaded.
import './env.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import type { Env } from '../../src/config/env.js';

export function tempDbPath(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'payctl-test-')), 'payctl.db');
}

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
