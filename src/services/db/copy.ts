// `payctl db copy`: a SQLite database moved to PostgreSQL, for a user who outgrows the
// embedded store. The rules of what may be copied (same schema version on both sides, an
// empty target unless told to replace it) and the user's wording of each refusal live
// here; reading and writing the two databases is the store's (src/store/postgres/copy-from-sqlite.ts).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { invalidRequest, validationError } from '../../errors.js';
import { parseDbTarget, redactUrl } from '../../config/env.js';
import { LATEST_VERSION } from '../../store/migrations/latest.js';
import type { Progress } from '../clock/chunks.js';

export interface CopyRequest {
  /** A SQLite file. */
  from: string;
  /** A postgres:// URL. */
  to: string;
  /** Empty the target first, when it holds data. */
  replace?: boolean;
  /** Rows per read page and per INSERT. */
  batchRows?: number;
  progress?: Progress;
}

export interface CopyResult {
  from: string;
  /** The target URL, its password left out. */
  to: string;
  schema_version: number;
  /** Per table: rows read from the source and rows counted in the target before the commit (equal, or nothing was copied). */
  tables: Array<{ table: string; source_rows: number; target_rows: number }>;
  rows: number;
  /** Identity counters set past the copied ids: the next value each hands out. */
  sequences: Array<{ table: string; column: string; next: number }>;
  elapsed_ms: number;
}

export const MAX_BATCH_ROWS = 50_000;

export async function copyDatabase(req: CopyRequest): Promise<CopyResult> {
  const from = parseDbTarget(req.from, '--from');
  if (from.kind !== 'sqlite') throw validationError([{ path: '--from', message: 'must be a SQLite database file (the database to copy from)' }]);
  const to = parseDbTarget(req.to, '--to');
  if (to.kind !== 'postgres') throw validationError([{ path: '--to', message: 'must be a postgres:// URL (db copy moves a SQLite database to PostgreSQL)' }]);
  const file = path.resolve(from.file);
  if (!existsSync(file) || !statSync(file).isFile()) throw invalidRequest(`--from ${from.file}: no such database file`);

  const { SqliteSource, CopyRefused, copySqliteToPostgres } = await import('../../store/postgres/copy-from-sqlite.js');
  const started = performance.now();
  let source: Awaited<ReturnType<typeof SqliteSource.open>>;
  try {
    source = await SqliteSource.open(file);
  } catch (err) {
    throw invalidRequest(`--from ${from.file}: cannot open it as a SQLite database (${(err as Error).message})`);
  }
  try {
    const out = await copySqliteToPostgres(source, to.url, {
      codeVersion: LATEST_VERSION,
      replace: req.replace,
      batchRows: req.batchRows,
      progress: req.progress,
    }).catch((err: unknown) => {
      if (err instanceof CopyRefused) throw invalidRequest(err.message);
      throw err;
    });
    return {
      from: file,
      to: redactUrl(to.url),
      schema_version: LATEST_VERSION,
      tables: out.tables,
      rows: out.tables.reduce((n, t) => n + t.target_rows, 0),
      sequences: out.sequences,
      elapsed_ms: Math.round(performance.now() - started),
    };
  } finally {
    await source.close();
  }
}
