import type { Executor, Tx } from '../../interfaces/db.js';
import type { GroupClockStore } from '../../interfaces/platform.js';
import type { GroupClockSetting } from '../../../domain/clock-modes.js';

/** A group's clock setting, as the columns of its row read (migrations 8 and 34). */
export const CLOCK_COLUMNS = 'clock_offset_ms AS offset_ms, clock_mode AS mode, clock_rate AS rate, clock_at_ms AS at_ms, clock_since_ms AS since_ms';

/** Each group's own clock: a mode, and an offset added to the platform clock's when it runs. */
export const groupClockRepo: GroupClockStore = {
  get: (ex: Executor, groupId: string) => ex.get<GroupClockSetting>(`SELECT ${CLOCK_COLUMNS} FROM groups WHERE id = ?`, [groupId]),
  put: (ex: Tx, groupId: string, s: GroupClockSetting) =>
    ex.run('UPDATE groups SET clock_offset_ms = ?, clock_mode = ?, clock_rate = ?, clock_at_ms = ?, clock_since_ms = ? WHERE id = ?', [
      s.offset_ms, s.mode, s.rate, s.at_ms, s.since_ms, groupId,
    ]),
  /** The distinct offsets of running clocks, with how many groups have each (the scheduler runs once per offset). */
  distinctOffsets: (ex: Executor) =>
    ex.all<{ offset_ms: number; groups: number }>(
      "SELECT clock_offset_ms AS offset_ms, COUNT(*) AS groups FROM groups WHERE clock_mode = 'running' GROUP BY clock_offset_ms ORDER BY clock_offset_ms",
    ),
  /** Groups whose clock runs faster than real time (the scheduler's tick runs each at its own time). */
  accelerated: (ex: Executor) => ex.all<{ id: string } & GroupClockSetting>(`SELECT id, ${CLOCK_COLUMNS} FROM groups WHERE clock_mode = 'accelerated' ORDER BY id`),
  async groupsAtOffset(ex: Executor, offsetMs: number) {
    const s = scopeCondition({ offsetMs }, 'id');
    return (await ex.all<{ id: string }>(`SELECT id FROM groups WHERE ${s.sql} ORDER BY id`, s.params)).map((r) => r.id);
  },
};

import type { GroupScope } from '../../interfaces/scope.js';
export type { GroupScope } from '../../interfaces/scope.js';

/** SQL condition (and its parameters) limiting `column` to the groups of `scope`. */
export function scopeCondition(scope: GroupScope, column = 'group_id'): { sql: string; params: unknown[] } {
  if ('groupId' in scope) return { sql: `${column} = ?`, params: [scope.groupId] };
  const forks = "id NOT IN (SELECT fork_id FROM fork_jobs WHERE phase <> 'clean')";
  if ('realTime' in scope) return { sql: `${column} IN (SELECT id FROM groups WHERE clock_mode <> 'running' AND ${forks})`, params: [] };
  return { sql: `${column} IN (SELECT id FROM groups WHERE clock_offset_ms = ? AND clock_mode = 'running' AND ${forks})`, params: [scope.offsetMs] };
}
