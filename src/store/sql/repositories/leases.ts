// Sandboxes' time to live, in SQL both stores accept.
import type { LeaseStore } from '../../interfaces/leases.js';

/** Ids a touch statement names: the same text for any number of sandboxes. */
const TOUCH_BATCH = 50;
const TOUCH_SQL = `UPDATE sandbox_leases SET last_request_ms = ? WHERE last_request_ms < ? AND group_id IN (${Array<string>(TOUCH_BATCH).fill('?').join(', ')})`;

export const leaseRepo: LeaseStore = {
  async insert(tx, groupId, ttlMs, nowMs) {
    await tx.run('INSERT INTO sandbox_leases (group_id, ttl_ms, last_request_ms) VALUES (?, ?, ?)', [groupId, ttlMs, nowMs]);
  },
  async copy(tx, from, to, nowMs) {
    await tx.run('INSERT INTO sandbox_leases (group_id, ttl_ms, last_request_ms) SELECT ?, ttl_ms, ? FROM sandbox_leases WHERE group_id = ?', [to, nowMs, from]);
  },
  async touch(tx, groupIds, atMs) {
    let changes = 0;
    for (let i = 0; i < groupIds.length; i += TOUCH_BATCH) {
      const batch = groupIds.slice(i, i + TOUCH_BATCH);
      // Padded with its first id: one statement text, whatever the count.
      const ids = [...batch, ...Array<string>(TOUCH_BATCH - batch.length).fill(batch[0]!)];
      changes += (await tx.run(TOUCH_SQL, [atMs, atMs, ...ids])).changes;
    }
    return { changes };
  },
  expired: async (ex, nowMs, limit) =>
    (await ex.all<{ group_id: string }>('SELECT group_id FROM sandbox_leases WHERE last_request_ms + ttl_ms <= ? ORDER BY last_request_ms + ttl_ms, group_id LIMIT ?', [nowMs, limit])).map(
      (r) => r.group_id,
    ),
  list: (ex) => ex.all<{ group_id: string; ttl_ms: number; last_request_ms: number }>('SELECT group_id, ttl_ms, last_request_ms FROM sandbox_leases'),
  find: (ex, groupId) => ex.get<{ ttl_ms: number; last_request_ms: number }>('SELECT ttl_ms, last_request_ms FROM sandbox_leases WHERE group_id = ?', [groupId]),
};
