// Webhook fault rules: the WebhookFaultRuleStore (the rule's fields as JSON text).
import { fromJsonColumn, jsonColumn } from '../columns.js';
import type { WebhookFaultRuleStore } from '../../interfaces/webhook-faults.js';
import type { WebhookFaultRule } from '../../../domain/faults.js';

interface Row {
  id: string;
  group_id: string;
  endpoint_id: string;
  rule: string;
  seed: number;
  calls: number;
  fired: number;
  created_at: string;
}

type Fields = Omit<WebhookFaultRule, 'id' | 'group_id' | 'endpoint_id' | 'seed' | 'calls' | 'fired' | 'created_at'>;

const toRule = (row: Row): WebhookFaultRule => ({
  id: row.id,
  group_id: row.group_id,
  endpoint_id: row.endpoint_id,
  ...(fromJsonColumn<Fields>(row.rule) ?? { action: 'drop' }),
  seed: row.seed,
  calls: row.calls,
  fired: row.fired,
  created_at: row.created_at,
});

export const webhookFaultRuleRepo: WebhookFaultRuleStore = {
  async insert(tx, r) {
    const { id, group_id, endpoint_id, seed, calls, fired, created_at, ...rule } = r;
    await tx.run('INSERT INTO webhook_fault_rules (id, group_id, endpoint_id, rule, seed, calls, fired, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      id, group_id, endpoint_id, jsonColumn(rule), seed, calls, fired, created_at,
    ]);
  },
  listByEndpoint: async (ex, groupId, endpointId) =>
    (await ex.all<Row>('SELECT * FROM webhook_fault_rules WHERE group_id = ? AND endpoint_id = ? ORDER BY created_at, id', [groupId, endpointId])).map(toRule),
  listAll: async (ex) => (await ex.all<Row>('SELECT * FROM webhook_fault_rules ORDER BY created_at, id')).map(toRule),
  counters: (tx, ids) =>
    tx.all<{ id: string; calls: number; fired: number }>(`SELECT id, calls, fired FROM webhook_fault_rules WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]),
  setCounters: (tx, id, calls, fired) => tx.run('UPDATE webhook_fault_rules SET calls = ?, fired = ? WHERE id = ?', [calls, fired, id]),
  remove: (tx, groupId, endpointId, id) => tx.run('DELETE FROM webhook_fault_rules WHERE group_id = ? AND endpoint_id = ? AND id = ?', [groupId, endpointId, id]),
};
