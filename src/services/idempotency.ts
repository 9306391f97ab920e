// Idempotency-Key: the key is claimed in the same database transaction as the work it
// guards (a WriteScope around the request's write), so a crash can never leave work
// done without its record, or a record without its work. Convention: a service's
// write returns the response object; that is what a retry replays.
import type { Platform } from './platform.js';
import type { WriteScope } from '../store/db.js';
import { idempotencyRepo, type IdempotencyRow } from '../store/repositories/idempotency.js';
import { idempotencyMismatch, validationError } from '../errors.js';
import { sha256 } from '../lib/hash.js';
import type { GroupScope } from '../store/repositories/group-clocks.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const MAX_KEY_LENGTH = 255;

/** Thrown inside a write when another request already completed with this key. */
export class IdempotentReplay extends Error {
  constructor(readonly record: IdempotencyRow) {
    super('idempotent replay');
  }
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw validationError([{ path: 'Idempotency-Key', message: `must be 1 to ${MAX_KEY_LENGTH} characters` }]);
  }
}

export const requestHash = (method: string, path: string, rawBody: string): string => sha256(`${method} ${path}\n${rawBody}`);

/** A completed record for this key, or undefined; 422 when the body differs. */
export async function findCompleted(p: Platform, scope: string, key: string, hash: string): Promise<IdempotencyRow | undefined> {
  const row = await idempotencyRepo.find(p.db, scope, key);
  if (row && row.request_hash !== hash) throw idempotencyMismatch();
  return row;
}

/** The scope that claims the key inside the first write of the request. */
export function claimScope(p: Platform, scope: string, key: string, hash: string, status: number): WriteScope {
  let claimed = false;
  return {
    async before(tx) {
      if (claimed) return;
      const row = await idempotencyRepo.find(tx, scope, key);
      if (row) {
        if (row.request_hash !== hash) throw idempotencyMismatch();
        throw new IdempotentReplay(row);
      }
    },
    async after(tx, result) {
      if (claimed) return;
      claimed = true;
      await idempotencyRepo.insert(tx, {
        group_id: scope,
        key,
        request_hash: hash,
        status,
        body: JSON.stringify(result),
        created_at: p.clock.nowIso(),
      });
    },
  };
}

/** Scheduler job: forget the keys of `scope` older than 24 hours of their time (`until`). */
export async function purgeIdempotencyKeys(p: Platform, until: Date, scope: GroupScope): Promise<number> {
  const before = new Date(until.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  if (!(await idempotencyRepo.hasOlderThan(p.db, before, scope))) return 0;
  const { changes } = await p.db.write((tx) => idempotencyRepo.deleteOlderThan(tx, before, scope));
  return changes;
}
