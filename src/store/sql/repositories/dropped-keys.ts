// The keys of sandboxes dropped lately, by fingerprint, in SQL both stores accept.
import type { DroppedKeyStore } from '../../interfaces/dropped-keys.js';

export const droppedKeyRepo: DroppedKeyStore = {
  async record(tx, groupId, reason, ttlMs, nowMs, forget) {
    await tx.run(
      `INSERT INTO dropped_sandbox_keys (key_hash, group_id, name, reason, ttl_ms, dropped_ms)
SELECT k.key_hash, k.group_id, g.name, ?, ?, ? FROM api_keys k JOIN groups g ON g.id = k.group_id WHERE k.group_id = ?
ON CONFLICT (key_hash) DO NOTHING`,
      [reason, ttlMs, nowMs, groupId],
    );
    await tx.run('DELETE FROM dropped_sandbox_keys WHERE dropped_ms < ?', [forget.beforeMs]);
    // Past the newest `keep`: the oldest go (a drop's keys share their time: all go or none). NULL while there are fewer: nothing goes.
    await tx.run('DELETE FROM dropped_sandbox_keys WHERE dropped_ms <= (SELECT d.dropped_ms FROM dropped_sandbox_keys d ORDER BY d.dropped_ms DESC LIMIT 1 OFFSET ?)', [forget.keep]);
  },
  find: (ex, keyHash) => ex.get('SELECT group_id, name, reason, ttl_ms, dropped_ms FROM dropped_sandbox_keys WHERE key_hash = ?', [keyHash]),
};
