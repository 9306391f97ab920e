// A new sandbox's keys: one per permission kind, issued in the write that makes the
// group (create, the start of a fork, an import). Shown once in that answer, never stored.
import type { Tx } from '../../store/interfaces/db.js';
import { PERMISSIONS, type Permission } from '../../domain/permissions.js';
import { mintKey } from '../groups/keys.js';

/** One key per permission kind, inserted in `tx`. */
export async function issueKeys(tx: Tx, groupId: string, now: string): Promise<Record<Permission, string>> {
  const keys = {} as Record<Permission, string>;
  const rows = PERMISSIONS.map((permission) => {
    const { key, row } = mintKey(groupId, [permission], `sandbox ${permission}`, now);
    keys[permission] = key;
    return row;
  });
  await tx.repos.apiKeys.insertMany(tx, rows);
  return keys;
}
