// The sandbox admin token: authorises creating, forking, dropping sandboxes and moving
// their clocks. It lives in the running server's memory (printed at start, or given
// with --admin-token / PAYCTL_ADMIN_TOKEN), never in the database, and is never a
// group's API key. Compared in constant time. When several servers share a database
// (PostgreSQL), each server also puts its token's SHA-256 there under a lease it renews
// while it runs, so a token printed by one server is accepted by all of them.
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../lib/hash.js';
import { randomBase62 } from '../lib/ids.js';
import type { SharedServerState } from '../store/interfaces/shared.js';

export const ADMIN_TOKEN_PREFIX = 'padm_';

export const newAdminToken = (): string => ADMIN_TOKEN_PREFIX + randomBase62(40);

/** Whether an Authorization value (a `Bearer ` prefix tolerated) is the admin token. */
export function isAdminToken(expected: string, header: string | undefined): boolean {
  if (!header) return false;
  const given = header.replace(/^Bearer\s+/i, '').trim();
  return timingSafeEqual(Buffer.from(sha256(given), 'hex'), Buffer.from(sha256(expected), 'hex'));
}

/** This server's token, or (several servers on one database) the token of another running server. */
export async function acceptsAdminToken(expected: string, header: string | undefined, shared: SharedServerState | undefined): Promise<boolean> {
  if (isAdminToken(expected, header)) return true;
  const given = header?.replace(/^Bearer\s+/i, '').trim();
  // Only what looks like an admin token costs a read (group keys on admin-or-key routes do not).
  if (!shared || !given?.startsWith(ADMIN_TOKEN_PREFIX)) return false;
  return shared.isAdminToken(sha256(given));
}

/** Make this server's token valid on every server of the database while it runs (nothing to do with one process per database). */
export async function shareAdminToken(token: string, shared: SharedServerState | undefined): Promise<() => Promise<void>> {
  if (!shared) return async () => undefined;
  const lease = await shared.registerAdminToken(sha256(token));
  return () => lease.release();
}
