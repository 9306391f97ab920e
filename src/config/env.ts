// Every environment variable payctl reads, in one place. Readers take `env` as a
// parameter so tests can pass their own.
import { statSync } from 'node:fs';
import path from 'node:path';

export const ENV = {
  db: 'PAYCTL_DB',
  /** Where the files that sit beside a database go (profile, access log) when the database is a URL. */
  dataDir: 'PAYCTL_DATA_DIR',
  smtpUrl: 'PAYCTL_SMTP_URL',
  mailFrom: 'PAYCTL_MAIL_FROM',
  publicUrl: 'PAYCTL_PUBLIC_URL',
  accessLog: 'PAYCTL_ACCESS_LOG',
  port: 'PAYCTL_PORT',
  host: 'PAYCTL_HOST',
  adminToken: 'PAYCTL_ADMIN_TOKEN',
  group: 'PAYCTL_GROUP',
  apiUrl: 'PAYCTL_API_URL',
  apiKey: 'PAYCTL_API_KEY',
  /** payctl/testing: a running server its suites share instead of starting their own (with PAYCTL_ADMIN_TOKEN). */
  testingUrl: 'PAYCTL_URL',
  listenSecret: 'PAYCTL_LISTEN_SECRET',
  /** How long a webhook sender holds the deliveries it claimed (ms, real time; default 15000). */
  webhookLeaseMs: 'PAYCTL_WEBHOOK_LEASE_MS',
  /** How long a sandbox clock move waits for its group's catch-up before answering 202 with the progress (ms, real time; default 10000). */
  clockAnswerMs: 'PAYCTL_CLOCK_ANSWER_MS',
  /** How long a sandbox fork request waits for the copy before answering 202 with the new sandbox and its progress (ms, real time; default 10000). */
  forkAnswerMs: 'PAYCTL_FORK_ANSWER_MS',
  /** How long a sandbox import waits for its rows to be written before answering 202 with the new sandbox and its progress (ms, real time; default 10000). */
  importAnswerMs: 'PAYCTL_IMPORT_ANSWER_MS',
  /** The largest sandbox file one import takes (bytes; default 1 GiB): a larger one is refused with 413. */
  importMaxBytes: 'PAYCTL_IMPORT_MAX_BYTES',
  /** The most rows one sandbox file may hold (default 2,000,000): a file with more is refused with 413. */
  importMaxRows: 'PAYCTL_IMPORT_MAX_ROWS',
  /** Writes one process runs at most at once on PostgreSQL (1–32; default 4; a lane beside a running one opens only after PAYCTL_PG_LANE_WAIT_MS). */
  pgWriters: 'PAYCTL_PG_WRITERS',
  /** How long a write waits for a busy lane before another opens on PostgreSQL (ms, 0–10000; default 20; 0: lanes open at once). */
  pgLaneWaitMs: 'PAYCTL_PG_LANE_WAIT_MS',
  /** The request journal (docs/journal.md): `on` (default) or `off` (no call is journaled, recordings hold nothing; for benchmarks). */
  journal: 'PAYCTL_JOURNAL',
  debug: 'DEBUG',
} as const;

export type Env = Record<string, string | undefined>;

/** A setting in the environment that breaks its rule: the message names the variable, the rule and the value. */
export class EnvError extends Error {}

/** The whole-number settings: [least, most, default]. */
export const ENV_INTEGERS = {
  [ENV.webhookLeaseMs]: [1, 86_400_000, 15_000],
  [ENV.clockAnswerMs]: [0, 86_400_000, 10_000],
  [ENV.forkAnswerMs]: [0, 86_400_000, 10_000],
  [ENV.importAnswerMs]: [0, 86_400_000, 10_000],
  [ENV.importMaxBytes]: [1, Number.MAX_SAFE_INTEGER, 1024 * 1024 * 1024],
  [ENV.importMaxRows]: [1, Number.MAX_SAFE_INTEGER, 2_000_000],
  /**
   * Lanes at most, by default. With group commit (store/postgres/db.ts) a lane carries every
   * write queued while it was busy, so fewer lanes make deeper batches (fewer transactions,
   * trips and WAL flushes per write). Four lets writes that wait (on a row lock, a slow
   * flush) or read inside their transaction (a capture, a void) run beside one another —
   * once a write has waited PAYCTL_PG_LANE_WAIT_MS for a lane: lanes opened as soon as a
   * write was queued sold 0.72× (one server) and 0.58× (three) what lanes opened on need
   * sold (docs/benchmarks/postgresql.md, "Lanes on need").
   */
  [ENV.pgWriters]: [1, 32, 4],
  [ENV.pgLaneWaitMs]: [0, 10_000, 20],
} as const satisfies Record<string, readonly [number, number, number]>;

export type EnvIntegerName = keyof typeof ENV_INTEGERS;

/**
 * Setting `name` of `env` (ENV_INTEGERS): its default when unset or blank; else a whole
 * number in its range, or an EnvError — a typo in a deployment's settings is refused,
 * never silently replaced by the default.
 */
export function envInteger(env: Env, name: EnvIntegerName): number {
  const [min, max, fallback] = ENV_INTEGERS[name];
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || v < min || v > max) {
    throw new EnvError(`${name}: must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return v;
}

/** Check every whole-number setting of `env` at once (at start: a bad one is refused before anything runs). */
export function checkEnv(env: Env): void {
  for (const name of Object.keys(ENV_INTEGERS) as EnvIntegerName[]) envInteger(env, name);
  journalOn(env);
}

/** Whether the request journal is on: PAYCTL_JOURNAL unset, blank or `on`; `off` turns it off; anything else is an EnvError. */
export function journalOn(env: Env): boolean {
  const raw = env[ENV.journal]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new EnvError(`${ENV.journal}: must be on or off (got ${JSON.stringify(env[ENV.journal])})`);
}

/** The folder and file of the default database, under a project's folder. */
export const DB_DIR = '.payctl';
export const DB_FILE = 'payctl.db';

/**
 * The nearest `.payctl/payctl.db` from `cwd` up to the root, as git finds `.git`: a
 * command run in a subfolder of a project uses the project's database, not a new empty
 * one beside it. Undefined when no folder on the way has one.
 */
export function findDbUpward(cwd = process.cwd()): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const file = path.join(dir, DB_DIR, DB_FILE);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // none here: look one folder up
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The default database: the nearest `.payctl/payctl.db` upward, else a new one under the current directory. */
export function defaultDbPath(cwd = process.cwd()): string {
  return findDbUpward(cwd) ?? path.join(cwd, DB_DIR, DB_FILE);
}

/** The default data directory of a database given as a URL: `.payctl` under the current directory. */
export function defaultDataDir(cwd = process.cwd()): string {
  return path.join(cwd, '.payctl');
}

/** What `--db` names: a SQLite file, or a PostgreSQL server. */
export type DbTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** A `--db` value that names no database payctl can open: a user error naming the flag (exit 1). */
export class DbTargetError extends Error {}

/** `scheme://` at the start: a URL, never a file path (a Windows `C:\` has no `//`). */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * The one place a `--db` / PAYCTL_DB value is read: `postgres://` or `postgresql://`
 * selects PostgreSQL, any other `scheme://` is refused, anything else is a SQLite file.
 */
export function parseDbTarget(value: string, from = '--db'): DbTarget {
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (value.trim() === '') throw new DbTargetError(`${from} is empty: give a SQLite file path or a postgres:// URL`);
    return { kind: 'sqlite', file: value };
  }
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    throw new DbTargetError(`${from} ${redactUrl(value)}: ${scheme}:// is not a database payctl opens; give a SQLite file path or postgres://user:password@host:5432/name`);
  }
  try {
    new URL(value);
  } catch {
    throw new DbTargetError(`${from} ${redactUrl(value)} is not a valid URL; write postgres://user:password@host:5432/name`);
  }
  return { kind: 'postgres', url: value };
}

/** A database URL for messages: its password replaced. */
export function redactUrl(value: string): string {
  return value.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}

/** The database of a command: its --db flag, else PAYCTL_DB, else the default file. */
export function dbTargetFrom(flag: string | undefined, env: Env = process.env): DbTarget {
  if (flag !== undefined) return parseDbTarget(flag);
  const fromEnv = env[ENV.db];
  if (fromEnv !== undefined && fromEnv !== '') return parseDbTarget(fromEnv, `--db (${ENV.db})`);
  return { kind: 'sqlite', file: defaultDbPath() };
}

/**
 * Why a command uses the database it uses, in words (`payctl config list`): the --db
 * flag, PAYCTL_DB, a `.payctl/` found upward from the current folder, or a new one in it.
 * `typed` is whether --db was on the command line (oclif also fills the flag from PAYCTL_DB).
 */
export function dbOrigin(typed: boolean, env: Env = process.env, cwd = process.cwd()): string {
  if (typed) return 'the --db flag';
  if (env[ENV.db]) return `the environment (${ENV.db})`;
  const found = findDbUpward(cwd);
  if (found === undefined) return `the default: ${path.join(DB_DIR, DB_FILE)} in the current folder; none exists there or in a folder above yet (\`payctl init\` creates it)`;
  return path.dirname(path.dirname(found)) === path.resolve(cwd)
    ? `the default: ${path.join(DB_DIR, DB_FILE)} in the current folder`
    : `the nearest ${DB_DIR}/ above the current folder (searched upward, as git finds .git)`;
}

/** The database for messages: the SQLite file's absolute path, or the URL without its password. */
export const dbName = (target: DbTarget): string => (target.kind === 'sqlite' ? path.resolve(target.file) : redactUrl(target.url));

/**
 * Where the files that sit beside the database go (profile, access log): --data-dir,
 * else PAYCTL_DATA_DIR, else the SQLite file's folder, or `./.payctl` for a URL.
 */
export function dataDirFrom(target: DbTarget, flag?: string, env: Env = process.env): string {
  const given = flag ?? (env[ENV.dataDir] || undefined);
  if (given !== undefined) return path.resolve(given);
  return target.kind === 'sqlite' ? path.dirname(path.resolve(target.file)) : defaultDataDir();
}
