// Every environment variable payctl reads, in one place. Readers take `env` as a
// parameter so tests can pass their own.
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
  /** Writes one process runs at once on PostgreSQL (1–32; default 8, the pool's size less two connections kept for reads). */
  pgWriters: 'PAYCTL_PG_WRITERS',
  debug: 'DEBUG',
} as const;

export type Env = Record<string, string | undefined>;

/** The default database: `.payctl/payctl.db` under the current directory. */
export function defaultDbPath(cwd = process.cwd()): string {
  return path.join(cwd, '.payctl', 'payctl.db');
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
 * Where the files that sit beside the database go (profile, access log): --data-dir,
 * else PAYCTL_DATA_DIR, else the SQLite file's folder, or `./.payctl` for a URL.
 */
export function dataDirFrom(target: DbTarget, flag?: string, env: Env = process.env): string {
  const given = flag ?? (env[ENV.dataDir] || undefined);
  if (given !== undefined) return path.resolve(given);
  return target.kind === 'sqlite' ? path.dirname(path.resolve(target.file)) : defaultDataDir();
}
