import type { Executor, Tx } from '../db.js';

export interface ApiKeyRow {
  id: string;
  group_id: string;
  key_hash: string;
  prefix: string;
  permissions: string; // JSON array
  name: string;
  created_at: string;
  revoked_at: string | null;
}

export const apiKeyRepo = {
  async insert(ex: Tx, k: ApiKeyRow) {
    await ex.run(
      'INSERT INTO api_keys (id, group_id, key_hash, prefix, permissions, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [k.id, k.group_id, k.key_hash, k.prefix, k.permissions, k.name, k.created_at, k.revoked_at],
    );
  },
  /** Several keys in one statement (a sandbox's key per permission kind). */
  async insertMany(ex: Tx, keys: ApiKeyRow[]) {
    if (keys.length === 0) return;
    await ex.run(
      `INSERT INTO api_keys (id, group_id, key_hash, prefix, permissions, name, created_at, revoked_at) VALUES ${keys.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      keys.flatMap((k) => [k.id, k.group_id, k.key_hash, k.prefix, k.permissions, k.name, k.created_at, k.revoked_at]),
    );
  },
  findByHash: (ex: Executor, hash: string) => ex.get<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [hash]),
  /** The key with its group's clock offset (authentication reads both in one query). */
  findForAuth: (ex: Executor, hash: string) =>
    ex.get<ApiKeyRow & { clock_offset_ms: number }>(
      'SELECT k.*, g.clock_offset_ms FROM api_keys k JOIN groups g ON g.id = k.group_id WHERE k.key_hash = ?',
      [hash],
    ),
  find: (ex: Executor, id: string) => ex.get<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]),
  list: (ex: Executor, groupId?: string) =>
    groupId
      ? ex.all<ApiKeyRow>('SELECT * FROM api_keys WHERE group_id = ? ORDER BY created_at, id', [groupId])
      : ex.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
  revoke: (ex: Tx, id: string, at: string) =>
    ex.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]),
};
