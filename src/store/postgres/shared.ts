// Server state that several servers on one database keep in it (tables of migration 24):
// the pay rate limit's sliding windows, counted by one function call that locks the
// (bucket, address) pair, so two servers counting the same address at once count
// exactly; and the admin tokens of the running servers, each a lease its server renews,
// held as SHA-256 only (the token itself is never stored).
import type pgTypes from 'pg';
import type { SharedRateHit, SharedServerState } from '../interfaces/shared.js';
import { newId } from '../../lib/ids.js';

/** How long an admin token stays valid after its server last renewed it (a server killed outright). */
export const ADMIN_LEASE_MS = 60_000;

export class PgSharedState implements SharedServerState {
  constructor(private readonly pool: pgTypes.Pool) {}

  async rateHit(bucket: string, address: string, nowMs: number, points: number, durationMs: number): Promise<SharedRateHit> {
    const r = await this.pool.query<{ allowed: boolean; used: number; oldest: number | null }>(
      'SELECT allowed, used, oldest FROM payctl_rate_hit($1, $2, $3, $4, $5)',
      [bucket, address, nowMs, durationMs, points],
    );
    const row = r.rows[0]!;
    return { allowed: row.allowed, remaining: points - row.used, resetMs: row.oldest === null ? 0 : row.oldest + durationMs - nowMs };
  }

  async rateSweep(bucket: string, nowMs: number, durationMs: number): Promise<void> {
    await this.pool.query('DELETE FROM rate_limit_hits WHERE bucket = $1 AND at_ms <= $2', [bucket, nowMs - durationMs]);
  }

  async registerAdminToken(hash: string): Promise<{ release(): Promise<void> }> {
    const server = newId();
    const renew = () =>
      this.pool.query(
        `INSERT INTO admin_tokens (server_id, token_hash, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (server_id) DO UPDATE SET expires_at = excluded.expires_at`,
        [server, hash, ADMIN_LEASE_MS],
      );
    await renew();
    // Leases of servers gone without a word (kill -9) are kept a day, then swept.
    await this.pool.query("DELETE FROM admin_tokens WHERE expires_at < clock_timestamp() - interval '1 day'");
    const timer = setInterval(() => void renew().catch(() => undefined), ADMIN_LEASE_MS / 3);
    timer.unref();
    return {
      release: async () => {
        clearInterval(timer);
        await this.pool.query('DELETE FROM admin_tokens WHERE server_id = $1', [server]).catch(() => undefined);
      },
    };
  }

  async isAdminToken(hash: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM admin_tokens WHERE token_hash = $1 AND expires_at > clock_timestamp() LIMIT 1', [hash]);
    return r.rows.length > 0;
  }
}
