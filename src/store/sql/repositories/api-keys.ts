// API keys: the ApiKeyStore. The permissions column is a JSON array; the
// entity's a list — converted here.
import type { Permission } from '../../../domain/permissions.js';
import type { ApiKeyEntity } from '../../../domain/groups.js';
import type { ApiKeyStore, GroupClockColumns } from '../../interfaces/groups.js';

interface ApiKeyRow extends Omit<ApiKeyEntity, 'permissions'> {
  permissions: string;
}

const values = (k: ApiKeyEntity) => [k.id, k.group_id, k.key_hash, k.prefix, JSON.stringify(k.permissions), k.name, k.created_at, k.revoked_at];

/** The entity of a row read back (in place: the row is fresh from the driver). */
function toRecord<R extends ApiKeyRow>(row: R): Omit<R, 'permissions'> & ApiKeyEntity {
  (row as unknown as { permissions: Permission[] }).permissions = JSON.parse(row.permissions) as Permission[];
  return row as unknown as Omit<R, 'permissions'> & ApiKeyEntity;
}
const maybe = <R extends ApiKeyRow>(row: R | undefined) => row && toRecord(row);

export const apiKeyRepo: ApiKeyStore = {
  async insert(ex, k) {
    await ex.run('INSERT INTO api_keys (id, group_id, key_hash, prefix, permissions, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', values(k));
  },
  /** Several keys in one statement (a sandbox's key per permission kind). */
  async insertMany(ex, keys) {
    if (keys.length === 0) return;
    await ex.run(
      `INSERT INTO api_keys (id, group_id, key_hash, prefix, permissions, name, created_at, revoked_at) VALUES ${keys.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      keys.flatMap(values),
    );
  },
  findByHash: async (ex, hash) => maybe(await ex.get<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [hash])),
  /** The key with its group's clock offset and status (authentication reads them in one query). */
  findForAuth: async (ex, hash) =>
    maybe(
      await ex.get<ApiKeyRow & GroupClockColumns & { group_status: string }>(
        'SELECT k.*, g.clock_offset_ms, g.clock_mode, g.clock_rate, g.clock_at_ms, g.clock_since_ms, g.status AS group_status FROM api_keys k JOIN groups g ON g.id = k.group_id WHERE k.key_hash = ?',
        [hash],
      ),
    ),
  find: async (ex, id) => maybe(await ex.get<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?', [id])),
  list: async (ex, groupId) =>
    (groupId
      ? await ex.all<ApiKeyRow>('SELECT * FROM api_keys WHERE group_id = ? ORDER BY created_at, id', [groupId])
      : await ex.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')
    ).map(toRecord),
  revoke: (ex, id, at) =>
    ex.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]),
};
