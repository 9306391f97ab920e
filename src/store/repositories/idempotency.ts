import { isTx, type Executor } from '../db.js';

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
  async insert(ex: Executor, r: IdempotencyRow) {
    const values = [r.group_id, r.key, r.request_hash, r.status, r.body, r.created_at];
    // Inside a write: sent with the batch's other rows (a later read of the table sees it).
    if (isTx(ex)) ex.deferInsert('idempotency_keys', IDEMPOTENCY_COLUMNS, values);
    else await ex.run(`INSERT INTO idempotency_keys (${IDEMPOTENCY_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`, values);
  },
  deleteOlderThan: (ex: Executor, before: string) => ex.run('DELETE FROM idempotency_keys WHERE created_at < ?', [before]),
};
