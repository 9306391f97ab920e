// The sandbox admin token: authorises creating, forking, dropping sandboxes and moving
// their clocks. It lives only in the running server's memory (printed at start, or
// given with --admin-token / PAYCTL_ADMIN_TOKEN), never in the database, and is never
// a group's API key. Compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../lib/hash.js';
import { randomBase62 } from '../lib/ids.js';

export const ADMIN_TOKEN_PREFIX = 'padm_';

export const newAdminToken = (): string => ADMIN_TOKEN_PREFIX + randomBase62(40);

/** Whether an Authorization value (a `Bearer ` prefix tolerated) is the admin token. */
export function isAdminToken(expected: string, header: string | undefined): boolean {
  if (!header) return false;
  const given = header.replace(/^Bearer\s+/i, '').trim();
  return timingSafeEqual(Buffer.from(sha256(given), 'hex'), Buffer.from(sha256(expected), 'hex'));
}
