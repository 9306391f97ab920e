import type { Executor, Tx } from '../db.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';

export interface IdempotencyRow {
  group_id: string;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}

const IDEMPOTENCY_COLUMNS = ['group_id', 'key', 'request_hash', 'status', 'body', 'created_at'] as const;

export const idempotencyRepo = {
  find: (ex: Executor, scope: string, key: string) =>
    ex.get<IdempotencyRow>('SELECT * FROM idempotency_keys WHERE group_id = ? AND key = ?', [scope, key]),
  /** Sent with the batch's other rows (a later read of the table sees it). */
  insert(tx: Tx, r: IdempotencyRow): void {
    tx.deferInsert('idempotency_keys', IDEMPOTENCY_COLUMNS, [r.group_id, r.key, r.request_hash, r.status, r.body, r.created_at]);
  },
  setAnswer: (tx: Tx, scope: string, key: string, status: number, body: string) =>
    tx.run('UPDATE idempotency_keys SET status = ?, body = ? WHERE group_id = ? AND key = ?', [status, body, scope, key]),
  /** Records of `scope` (a group scope, or the key scope 'public') created before `before`. */
  async hasOlderThan(ex: Executor, before: string, scope: GroupScope): Promise<boolean> {
    const s = scopeCondition(scope);
    return (await ex.get(`SELECT 1 AS x FROM idempotency_keys WHERE created_at < ? AND ${s.sql} LIMIT 1`, [before, ...s.params])) !== undefined;
  },
  deleteOlderThan(ex: Tx, before: string, scope: GroupScope) {
    const s = scopeCondition(scope);
    return ex.run(`DELETE FROM idempotency_keys WHERE created_at < ? AND ${s.sql}`, [before, ...s.params]);
  },
};
