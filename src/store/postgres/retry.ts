// When a PostgreSQL write runs again (db.ts inTransaction): PostgreSQL gave it up for
// another's sake (serialization failure, deadlock), a unique violation another writer's
// row may have caused, a stale prepared plan, or a connection lost before its COMMIT.
import { asStoreUnavailable } from '../errors.js';
import { isStalePlan, RETRYABLE, sqlState, UNIQUE_VIOLATION } from './sql.js';

/** Attempts of a write PostgreSQL gave up on (serialization failure, deadlock), and of one that hit a unique violation. */
const MAX_ATTEMPTS = 20;
const MAX_UNIQUE_ATTEMPTS = 3;
/** Runs of a write whose connection was lost before its COMMIT (each on a new connection). */
const MAX_LOST_CONNECTIONS = 3;
/**
 * Failures after which a write runs again alone in its process: new writes wait while
 * the running ones end. Lanes that keep meeting on the same rows (many subscriptions of
 * one customer made at once) could otherwise fail one write every time until its
 * attempts run out — a 500 for a request that did nothing wrong.
 */
export const ALONE_AFTER = 3;

/** A connection that ended under a statement (its server shut it, restarted, or the network dropped it). */
export function isLostConnection(err: unknown): boolean {
  const reason = asStoreUnavailable(err)?.reason;
  return reason === 'connection_lost' || reason === 'shutting_down';
}

/** The failures of one write so far, and whether it runs again after the next. */
export class Retries {
  private uniqueFailures = 0;
  private lostConnections = 0;

  /** After a connection lost before COMMIT: run again on a new connection, a bounded number of times. */
  againOnNewConnection(err: unknown): boolean {
    return isLostConnection(err) && ++this.lostConnections < MAX_LOST_CONNECTIONS;
  }

  /** After attempt `attempt` failed with `err` (rolled back): run again. */
  again(err: unknown, attempt: number): boolean {
    const state = sqlState(err);
    return (
      (state !== undefined && RETRYABLE.has(state) && attempt < MAX_ATTEMPTS) ||
      (state === UNIQUE_VIOLATION && ++this.uniqueFailures < MAX_UNIQUE_ATTEMPTS) ||
      (attempt < MAX_ATTEMPTS && isStalePlan(err))
    );
  }
}

/** Apart again at random, a little longer each time (two writers on the same rows would collide again in step). */
export function backOff(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** attempt)));
}

/** Where a retried write failed, for the retry counts: `40001 INSERT INTO transaction_daily`. */
export function retryKey(err: unknown, current: string): string {
  return `${sqlState(err)} ${statementHead(current || 'BEGIN')}`;
}

/** The first words of a statement that say what it touches (`INSERT INTO transaction_daily`, `UPDATE subscriptions`). */
function statementHead(sql: string): string {
  const m = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT [\s\S]*? FROM|SELECT|COMMIT|BEGIN)\s*(\w*)/i.exec(sql);
  if (!m) return sql.trim().slice(0, 40);
  const verb = /^SELECT /i.test(m[1]!) && m[1]!.length > 6 ? 'SELECT … FROM' : m[1]!.toUpperCase();
  return `${verb} ${m[2] ?? ''}`.trim();
}
