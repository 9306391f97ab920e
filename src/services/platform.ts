// The platform: one database, its clock and configuration. Every service function takes
// it as its first argument; the CLI opens one per command, the server one per process.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Database } from '../store/db.js';
import { migrate } from '../store/migrate.js';
import { DbClock } from './clock.js';
import { ENV, type Env } from '../config/env.js';

export interface Platform {
  db: Database;
  clock: DbClock;
  env: Env;
  /** Base URL of public pages (invoice page, pay page); set by `serve`, or PAYCTL_PUBLIC_URL. */
  publicUrl: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  dbPath: string;
  env?: Env;
  publicUrl?: string;
}

export async function openPlatform(opts: OpenOptions): Promise<Platform> {
  const env = opts.env ?? process.env;
  if (opts.dbPath !== ':memory:') mkdirSync(path.dirname(path.resolve(opts.dbPath)), { recursive: true });
  const db = await Database.open(opts.dbPath);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  const clock = new DbClock(db);
  await clock.refresh();
  return {
    db,
    clock,
    env,
    publicUrl: (opts.publicUrl ?? env[ENV.publicUrl] ?? 'http://127.0.0.1:4000').replace(/\/$/, ''),
    close: () => db.close(),
  };
}
