// API keys: random (192 bits), shown once, stored as a SHA-256 hash (a random key
// needs no slow hash), bound to one group, revocable.
import type { Platform } from '../platform.js';
import { apiKeyRepo } from '../../store/repositories/api-keys.js';
import type { ApiKeyEntity } from '../../domain/groups.js';
import { newId, randomBase62 } from '../../lib/ids.js';
import { sha256 } from '../../lib/hash.js';
import { authenticationError, notFound, validationError } from '../../errors.js';
import { PERMISSIONS, type Permission } from '../../domain/permissions.js';
import { requireGroup } from './groups.js';
import { configCache } from '../../store/config-cache.js';

export interface ApiKeyInfo {
  id: string;
  group_id: string;
  prefix: string;
  name: string;
  permissions: Permission[];
  created_at: string;
  revoked_at: string | null;
}

const KEY_PREFIX = 'sk_test_';

function toInfo(row: ApiKeyEntity): ApiKeyInfo {
  return {
    id: row.id,
    group_id: row.group_id,
    prefix: row.prefix,
    name: row.name,
    permissions: row.permissions,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

export async function createKey(
  p: Platform,
  input: { groupId: string; permissions: string[]; name?: string },
): Promise<ApiKeyInfo & { key: string }> {
  await requireGroup(p.db, input.groupId);
  if (input.permissions.length === 0) throw validationError([{ path: 'permissions', message: 'give at least one permission' }]);
  const bad = input.permissions.find((x) => !(PERMISSIONS as readonly string[]).includes(x));
  if (bad) throw validationError([{ path: 'permissions', message: `"${bad}" is not one of ${PERMISSIONS.join(', ')}` }]);
  const { key, row } = mintKey(input.groupId, [...new Set(input.permissions)] as Permission[], input.name ?? '', p.clock.nowIso());
  await p.db.write((tx) => apiKeyRepo.insert(tx, row));
  return { key, ...toInfo(row) };
}

/** A new random key and the row that stores it (only its hash); the caller inserts the row. */
export function mintKey(groupId: string, permissions: Permission[], name: string, now: string): { key: string; row: ApiKeyEntity } {
  const key = KEY_PREFIX + randomBase62(32);
  return {
    key,
    row: {
      id: newId(),
      group_id: groupId,
      key_hash: sha256(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      permissions,
      name,
      created_at: now,
      revoked_at: null,
    },
  };
}

export async function listKeys(p: Platform, groupId?: string): Promise<ApiKeyInfo[]> {
  return (await apiKeyRepo.list(p.db, groupId)).map(toInfo);
}

export async function revokeKey(p: Platform, id: string): Promise<ApiKeyInfo> {
  const existing = await apiKeyRepo.find(p.db, id);
  if (!existing) throw notFound('API key');
  await p.db.write((tx) => apiKeyRepo.revoke(tx, id, p.clock.nowIso()));
  return toInfo((await apiKeyRepo.find(p.db, id))!);
}

/** The key in an `Authorization` header (whole value; a `Bearer ` prefix is tolerated), with its group's clock offset. */
export async function authenticateKey(p: Platform, header: string | undefined): Promise<ApiKeyInfo & { groupClockOffsetMs: number }> {
  if (!header) throw authenticationError('missing Authorization header: send your API key as its value');
  const key = header.replace(/^Bearer\s+/i, '').trim();
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) throw authenticationError('malformed API key');
  const hash = sha256(key);
  // One read of the change counter instead of the key row (and, later in the request, the group and processor rows).
  const cache = configCache(p.db);
  const version = await cache.check(p.db);
  let row = cache.key(hash);
  if (!row) {
    row = await apiKeyRepo.findForAuth(p.db, hash);
    if (!row) throw authenticationError('unknown API key');
    cache.putKey(version, row);
  }
  if (row.revoked_at) throw authenticationError('this API key was revoked');
  return { ...toInfo(row), groupClockOffsetMs: row.clock_offset_ms };
}
