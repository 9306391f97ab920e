// The running server's address, kept beside the database (server.json in the data
// directory) by `payctl serve`, so that every URL another command prints — a pay page,
// an invoice page — is the one the server really answers on (`--port 4123`,
// `--public-url https://pay.example`), not a built-in default. A file left by a server
// that died (kill -9) names a process that is gone and is ignored, and so is one of
// another database in the same folder.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileIn } from './data-dir.js';
import { ENV, type Env } from './env.js';

export const SERVER_FILE = 'server.json';
/** Where pages are served when no server runs and none is configured. */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:4000';

export interface ServerRecord {
  /** The address the server listens on. */
  url: string;
  /** The address pages are printed with (--public-url, else url). */
  public_url: string;
  /** The database it serves (the store's location: a file path or a postgres:// URL without its password). */
  db: string;
  pid: number;
  started_at: string;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Record this process as the database's server (written whole: a reader never sees half a file). */
export function writeServerRecord(dataDir: string, record: Pick<ServerRecord, 'url' | 'public_url' | 'db'>): string {
  const file = fileIn(dataDir, SERVER_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  const full: ServerRecord = { ...record, pid: process.pid, started_at: new Date().toISOString() };
  writeFileSync(tmp, `${JSON.stringify(full, null, 2)}\n`);
  renameSync(tmp, file);
  return file;
}

/** Remove the record when it is still this process's (another server may have started since). */
export function removeServerRecord(dataDir: string): void {
  if (readServerRecord(dataDir)?.pid === process.pid) rmSync(fileIn(dataDir, SERVER_FILE), { force: true });
}

/** The server of database `db` recorded in the data directory, if its process still runs. */
export function runningServer(dataDir: string, db: string): ServerRecord | undefined {
  const record = readServerRecord(dataDir);
  return record && record.db === db && alive(record.pid) ? record : undefined;
}

function readServerRecord(dataDir: string): ServerRecord | undefined {
  try {
    const v = JSON.parse(readFileSync(fileIn(dataDir, SERVER_FILE), 'utf8')) as Partial<ServerRecord>;
    if (typeof v.url !== 'string' || typeof v.public_url !== 'string' || typeof v.pid !== 'number' || typeof v.db !== 'string') return undefined;
    return { url: v.url, public_url: v.public_url, db: v.db, pid: v.pid, started_at: String(v.started_at ?? '') };
  } catch {
    return undefined;
  }
}

/**
 * The base of the page URLs a command prints: PAYCTL_PUBLIC_URL, else the running
 * server's public address, else the default. `source` says which, for a hint.
 */
export function publicUrlFor(dataDir: string, db: string, env: Env = process.env): { url: string; source: 'env' | 'server' | 'default' } {
  const fromEnv = env[ENV.publicUrl];
  if (fromEnv) return { url: fromEnv.replace(/\/$/, ''), source: 'env' };
  const server = runningServer(dataDir, db);
  if (server) return { url: server.public_url, source: 'server' };
  return { url: DEFAULT_PUBLIC_URL, source: 'default' };
}
