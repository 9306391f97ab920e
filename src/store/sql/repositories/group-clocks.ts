import type { Executor, Tx } from '../../interfaces/db.js';
import type { GroupClockStore } from '../../interfaces/platform.js';

/** Each group's own clock offset (added to the platform clock's). */
export const groupClockRepo: GroupClockStore = {
  async offset(ex: Executor, groupId: string): Promise<number | undefined> {
    return (await ex.get<{ clock_offset_ms: number }>('SELECT clock_offset_ms FROM groups WHERE id = ?', [groupId]))?.clock_offset_ms;
  },
  /** Move a group's offset; only forward (compare-and-set on the offset read). */
  setOffset: (ex: Tx, groupId: string, from: number, to: number) =>
    ex.run('UPDATE groups SET clock_offset_ms = ? WHERE id = ? AND clock_offset_ms = ?', [to, groupId, from]),
  put: (ex: Tx, groupId: string, to: number) => ex.run('UPDATE groups SET clock_offset_ms = ? WHERE id = ?', [to, groupId]),
  /** The distinct offsets in use, with how many groups have each (the scheduler runs once per offset). */
  distinctOffsets: (ex: Executor) =>
    ex.all<{ offset_ms: number; groups: number }>('SELECT clock_offset_ms AS offset_ms, COUNT(*) AS groups FROM groups GROUP BY clock_offset_ms ORDER BY clock_offset_ms'),
  async groupsAtOffset(ex: Executor, offsetMs: number) {
    const s = scopeCondition({ offsetMs }, 'id');
    return (await ex.all<{ id: string }>(`SELECT id FROM groups WHERE ${s.sql} ORDER BY id`, s.params)).map((r) => r.id);
  },
};

import type { GroupScope } from '../../interfaces/scope.js';
export type { GroupScope } from '../../interfaces/scope.js';

/** SQL condition (and its parameters) limiting `column` to the groups of `scope`. */
export function scopeCondition(scope: GroupScope, column = 'group_id'): { sql: string; params: unknown[] } {
  return 'groupId' in scope
    ? { sql: `${column} = ?`, params: [scope.groupId] }
    : { sql: `${column} IN (SELECT id FROM groups WHERE clock_offset_ms = ? AND id NOT IN (SELECT fork_id FROM fork_jobs WHERE phase <> 'clean'))`, params: [scope.offsetMs] };
}
