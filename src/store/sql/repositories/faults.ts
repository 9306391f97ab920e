// Fault rules: the FaultRuleStore. The rule's fields are JSON text in `rule`
// (their shape is the domain's schema); seed and counters are columns of their own.
import { fromJsonColumn, jsonColumn } from '../columns.js';
import type { FaultRuleStore } from '../../interfaces/faults.js';
import type { ApiFaultRule } from '../../../domain/faults.js';

interface FaultRuleRow {
  id: string;
  group_id: string;
  rule: string;
  seed: number;
  calls: number;
  fired: number;
  created_at: string;
}

const toRule = (row: FaultRuleRow): ApiFaultRule => ({
  id: row.id,
  group_id: row.group_id,
  ...(fromJsonColumn<Omit<ApiFaultRule, 'id' | 'group_id' | 'seed' | 'calls' | 'fired' | 'created_at'>>(row.rule) ?? { action: 'latency' }),
  seed: row.seed,
  calls: row.calls,
  fired: row.fired,
  created_at: row.created_at,
});

export const faultRuleRepo: FaultRuleStore = {
  async insert(tx, r) {
    const { id, group_id, seed, calls, fired, created_at, ...rule } = r;
    await tx.run('INSERT INTO fault_rules (id, group_id, rule, seed, calls, fired, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      id, group_id, jsonColumn(rule), seed, calls, fired, created_at,
    ]);
  },
  listByGroup: async (ex, groupId) =>
    (await ex.all<FaultRuleRow>('SELECT * FROM fault_rules WHERE group_id = ? ORDER BY created_at, id', [groupId])).map(toRule),
  listAll: async (ex) => (await ex.all<FaultRuleRow>('SELECT * FROM fault_rules ORDER BY created_at, id')).map(toRule),
  counters: (tx, ids) =>
    tx.all<{ id: string; calls: number; fired: number }>(`SELECT id, calls, fired FROM fault_rules WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]),
  setCounters: (tx, id, calls, fired) => tx.run('UPDATE fault_rules SET calls = ?, fired = ? WHERE id = ?', [calls, fired, id]),
  remove: (tx, groupId, id) => tx.run('DELETE FROM fault_rules WHERE group_id = ? AND id = ?', [groupId, id]),
  isSandbox: async (ex, groupId) => (await ex.get<{ s: number }>('SELECT sandbox AS s FROM groups WHERE id = ?', [groupId]))?.s === 1,
  groupExists: async (ex, groupId) => (await ex.get('SELECT 1 AS x FROM groups WHERE id = ?', [groupId])) !== undefined,
};
