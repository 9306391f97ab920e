// The platform: one database, its clock and configuration. Every service function takes
// it as its first argument; the CLI opens one per command, the server one per process.
// `forGroup` gives the same platform seen from one group: its `clock` is that group's
// clock, so everything a service stamps or compares for the group reads the group's time.
import type { Executor, Store } from '../store/interfaces/db.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { DbClock, GroupClock, ShiftedClock, type Clock } from './clock/clock.js';
import type { GroupClockSetting } from '../domain/clock-modes.js';
import { checkEnv, dataDirFrom, ENV, parseDbTarget, type DbTarget, type Env } from '../config/env.js';

export interface Platform {
  /** The store chosen at start from --db (SQLite or PostgreSQL); services take its repositories from it. */
  db: Store;
  /** Where the files beside the database go (profile, access log). */
  dataDir: string;
  /** The clock of the group this platform is seen from (forGroup), else the platform clock. */
  clock: Clock;
  /** On a group's view: the platform clock under the group's (tokens and other group-less things). */
  platformClock?: Clock;
  /** On a group's view: the group. */
  groupId?: string;
  env: Env;
  /** Base URL of public pages (invoice page, pay page); set by `serve`, or PAYCTL_PUBLIC_URL. */
  publicUrl: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A --db value (a SQLite file path or a postgres:// URL), or one parsed already (config/env.ts dbTargetFrom). */
  db: string | DbTarget;
  /** --data-dir, when given. */
  dataDir?: string;
  env?: Env;
  publicUrl?: string;
}

/** The store `target` names, opened and migrated: the one place the implementation is chosen. */
async function openStore(target: DbTarget, env: Env): Promise<Store> {
  if (target.kind === 'sqlite') return openSqliteStore(target.file);
  // Loaded only when chosen: a SQLite command never loads the pg driver.
  const { openPostgresStore } = await import('../store/postgres/index.js');
  return openPostgresStore(target.url, env);
}

export async function openPlatform(opts: OpenOptions): Promise<Platform> {
  const env = opts.env ?? process.env;
  checkEnv(env);
  const target: DbTarget = typeof opts.db === 'string' ? parseDbTarget(opts.db) : opts.db;
  const db = await openStore(target, env);
  const clock = new DbClock(db);
  await clock.refresh();
  return {
    db,
    clock,
    dataDir: dataDirFrom(target, opts.dataDir, env),
    env,
    publicUrl: (opts.publicUrl ?? env[ENV.publicUrl] ?? 'http://127.0.0.1:4000').replace(/\/$/, ''),
    close: () => db.close(),
  };
}

/** The platform clock, whichever view `p` is. */
export const platformClock = (p: Platform): Clock => p.platformClock ?? p.clock;

/** `p` seen from group `groupId`, whose clock (already read) is `clock` (a number: a running clock with that offset). */
export function withGroupClock(p: Platform, groupId: string, clock: GroupClockSetting | number): Platform {
  if (p.groupId === groupId) return p;
  const base = platformClock(p);
  return { ...p, clock: new GroupClock(base, p.db, groupId, clock), platformClock: base, groupId };
}

/** `p` seen from group `groupId` (its clock offset read through `ex`); `p` itself for an unknown group. */
export async function forGroup(p: Platform, groupId: string, ex: Executor = p.db): Promise<Platform> {
  if (p.groupId === groupId) return p;
  const clock = await ex.repos.groupClocks.get(ex, groupId);
  return clock === undefined ? p : withGroupClock(p, groupId, clock);
}

/** `p` on the clock of every group whose own offset is `offsetMs` (the scheduler's view of them). */
export function withClockOffset(p: Platform, offsetMs: number): Platform {
  const base = platformClock(p);
  return { ...p, clock: new ShiftedClock(base, offsetMs), platformClock: base, groupId: undefined };
}
