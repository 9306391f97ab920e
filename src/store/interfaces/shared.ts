// What several servers on one database share beyond the tables services write: notices
// that another server committed something (PostgreSQL: LISTEN/NOTIFY), and the little
// server state that must be one across servers (rate-limit windows, admin tokens). A
// store with one process per database (SQLite) has none of it: the process's memory is
// already the whole truth there.

/** Events were committed: for these groups, or for any group (`all`: notices may have been lost). */
export type EventsNotice = { groups: readonly string[] } | { all: true };

/** Notices from every process on the database (their own included), after each commit. */
export interface StoreNotices {
  /**
   * Call `fn` after a commit that appended events, whichever server made it. When the
   * notice connection dropped (notices may have been missed) `fn` gets `{ all: true }`:
   * the caller re-reads the database, which stays the truth.
   */
  onEvents(fn: (notice: EventsNotice) => void): () => void;
}

/** One count of the sliding-window rate limit, taken in the database. */
export interface SharedRateHit {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the oldest counted hit leaves the window. */
  resetMs: number;
}

/** Server state kept in the database so that every server sees the same. */
export interface SharedServerState {
  /**
   * Count one request of `address` in `bucket` (at most `points` in any trailing
   * `durationMs`), exactly however many servers count at once.
   */
  rateHit(bucket: string, address: string, nowMs: number, points: number, durationMs: number): Promise<SharedRateHit>;
  /** Forget the hits of `bucket` older than `durationMs` before `nowMs` (bounded memory). */
  rateSweep(bucket: string, nowMs: number, durationMs: number): Promise<void>;
  /**
   * Make the admin token whose SHA-256 is `hash` valid on every server while this server
   * runs (a lease renewed while it lives); `release` ends it at shutdown.
   */
  registerAdminToken(hash: string): Promise<{ release(): Promise<void> }>;
  /** Whether a running server (any) holds the admin token whose SHA-256 is `hash`. */
  isAdminToken(hash: string): Promise<boolean>;
}
