// Store failures that are the caller's situation, not a bug. A write that names a row
// deleted meanwhile (a sandbox dropped while its requests were in flight) fails its
// foreign key; the write's savepoint rolled it back whole, so it is a plain "not found".
export function isMissingReference(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  // SQLite: SQLITE_CONSTRAINT "FOREIGN KEY constraint failed"; PostgreSQL: 23503.
  return (code === 'SQLITE_CONSTRAINT' && typeof message === 'string' && message.includes('FOREIGN KEY')) || code === '23503';
}

/**
 * Whether a store error is a row the database refused (any constraint: SQLite's
 * SQLITE_CONSTRAINT*, PostgreSQL's class 23): on an import, the file's fault, not the server's.
 */
export function isRefusedRow(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (typeof e.code === 'string' && (e.code.startsWith('SQLITE_CONSTRAINT') || e.code.startsWith('23'))) || /constraint/i.test(String(e.message ?? ''));
}

/** What the database said of a refused row, without the driver's code in front (SQLite's `SQLITE_CONSTRAINT: `). */
export function refusedRowWords(err: unknown): string {
  return String((err as Error).message).replace(/^SQLITE_CONSTRAINT:\s*/, '');
}

/** The database was written by a newer payctl: refused with a clear message rather than misread. */
export class SchemaTooNewError extends Error {}

/**
 * Why the store cannot serve now, in few words: metrics count store errors by it
 * (`payctl_store_errors_total{cause}`) and the 503 names it.
 */
export type OutageCause =
  | 'connection_refused'
  | 'connection_lost'
  | 'shutting_down'
  | 'starting_up'
  | 'too_many_connections'
  | 'pool_exhausted'
  | 'commit_unknown'
  | 'disk_full'
  | 'io_error'
  | 'read_only'
  | 'locked'
  | 'cannot_open';

/** What each cause means, for the 503's message and the log line of paused background work. */
const WORDS: Record<OutageCause, string> = {
  connection_refused: 'the database refused the connection (is it running?)',
  connection_lost: 'the connection to the database was lost',
  // 57P01 is also what pg_terminate_backend sends (the fault suite saw it far more often than a shutdown).
  shutting_down: 'the database ended the connection (it is shutting down, or the session was terminated)',
  starting_up: 'the database is starting up',
  too_many_connections: 'the database has too many connections',
  pool_exhausted: 'no database connection became free in time',
  commit_unknown: 'the connection to the database was lost during COMMIT, so whether the write was saved is unknown',
  disk_full: "the database's disk is full",
  io_error: "the database's disk failed a read or write",
  read_only: 'the database file or its disk is read-only',
  locked: 'another process held the database write lock past the busy timeout',
  cannot_open: 'the database file cannot be opened',
};

/**
 * The store is unreachable or refuses writes: the caller's retry (after `retryAfterS`)
 * can succeed without any change to payctl. `reason` says why (its words in the message); `commitUnknown`
 * marks a write whose COMMIT was sent but never answered (it may have been saved).
 */
export class StoreUnavailable extends Error {
  readonly retryAfterS: number;
  constructor(
    readonly reason: OutageCause,
    readonly detail: string,
  ) {
    super(`${WORDS[reason]} (${detail})`);
    this.name = 'StoreUnavailable';
    // A disk that filled or went read-only needs someone to act: no point asking back at once.
    this.retryAfterS = reason === 'disk_full' || reason === 'read_only' || reason === 'io_error' ? 5 : 1;
  }
  get commitUnknown(): boolean {
    return this.reason === 'commit_unknown';
  }
  /** What the reason means, without the driver's text. */
  get words(): string {
    return WORDS[this.reason];
  }
}

/** Socket errors of a connection to a database server. */
const SOCKET_LOST = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN']);

/** PostgreSQL SQLSTATEs (and driver messages) of a server that cannot serve now. */
function postgresCause(code: string | undefined, message: string): OutageCause | undefined {
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code !== undefined && SOCKET_LOST.has(code)) return 'connection_lost';
  if (code === '57P01' || code === '57P02') return 'shutting_down'; // admin_shutdown (also pg_terminate_backend), crash_shutdown
  if (code === '57P03') return 'starting_up'; // cannot_connect_now
  if (code === '53300') return 'too_many_connections';
  if (code === '53100') return 'disk_full';
  if (code === '58030') return 'io_error';
  if (code === '25006') return 'read_only'; // read_only_sql_transaction: a standby
  if (code?.startsWith('08')) return 'connection_lost'; // connection_exception class
  // The pg driver's own words for a connection that ended or never came.
  if (/^Connection terminated|Client has encountered a connection error|Connection ended unexpectedly|not queryable/i.test(message)) return 'connection_lost';
  if (/timeout exceeded when trying to connect/i.test(message)) return 'pool_exhausted';
  return undefined;
}

/** node-sqlite3's result codes of a file that cannot be written now. */
function sqliteCause(code: string): OutageCause | undefined {
  switch (code) {
    case 'SQLITE_FULL':
      return 'disk_full';
    case 'SQLITE_IOERR':
      return 'io_error';
    case 'SQLITE_READONLY':
      return 'read_only';
    case 'SQLITE_BUSY':
      return 'locked'; // only ever seen once busy_timeout has passed
    case 'SQLITE_CANTOPEN':
      return 'cannot_open';
    default:
      return undefined;
  }
}

/** How long to wait after an outage before trying the store again: doubling from the first, up to the most (background work, `payctl serve` waiting for its store). */
export const FIRST_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 5_000;

/** The outage an error of either store's driver is, or undefined when it is anything else (a bug, a constraint). */
export function asStoreUnavailable(err: unknown): StoreUnavailable | undefined {
  if (err instanceof StoreUnavailable) return err;
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message } = err as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  const c = typeof code === 'string' ? code : undefined;
  const cause = c?.startsWith('SQLITE_') ? sqliteCause(c) : postgresCause(c, text);
  return cause ? new StoreUnavailable(cause, text.split('\n')[0] || (c ?? 'unknown')) : undefined;
}

/** `err` as a StoreUnavailable when it is one (so its callers see one type), else unchanged. */
export function classifyStoreError(err: unknown): unknown {
  return asStoreUnavailable(err) ?? err;
}
