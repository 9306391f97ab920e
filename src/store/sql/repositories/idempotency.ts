// Idempotency records: the IdempotencyStore. The answer's body is JSON text in
// the row (exactly the text that was sent: JSON text of the same value is the same
// text); the record's the value itself — converted here.
import { scopeCondition } from './group-clocks.js';
import { fromJsonColumn, jsonColumn } from '../columns.js';
import type { IdempotencyRecord, IdempotencyStore } from '../../interfaces/idempotency.js';
import type { GroupScope } from '../../interfaces/scope.js';
import type { Dialect } from '../dialect.js';

interface IdempotencyRow extends Omit<IdempotencyRecord, 'body'> {
  body: string;
}

const IDEMPOTENCY_COLUMNS = ['group_id', 'key', 'request_hash', 'status', 'body', 'created_at', 'settling_until'] as const;

/** The body column: never NULL (an answer without a body is recorded as JSON null). */
const bodyColumn = (body: unknown): string => jsonColumn(body) ?? 'null';

export const idempotencyRepo: IdempotencyStore = {
  async find(ex, scope, key) {
    const row = await ex.get<IdempotencyRow>('SELECT * FROM idempotency_keys WHERE group_id = ? AND key = ?', [scope, key]);
    if (!row) return undefined;
    (row as IdempotencyRecord).body = fromJsonColumn(row.body);
    return row as IdempotencyRecord;
  },
  insert(tx, r) {
    tx.deferInsert('idempotency_keys', IDEMPOTENCY_COLUMNS, [r.group_id, r.key, r.request_hash, r.status, bodyColumn(r.body), r.created_at, r.settling_until]);
  },
  setAnswer: (tx, scope, key, status, body) =>
    tx.run('UPDATE idempotency_keys SET status = ?, body = ?, settling_until = NULL WHERE group_id = ? AND key = ?', [status, bodyColumn(body), scope, key]),
  async hasOlderThan(ex, before, scope) {
    const s = scopeCondition(scope);
    return (await ex.get(`SELECT 1 AS x FROM idempotency_keys WHERE created_at < ? AND ${s.sql} LIMIT 1`, [before, ...s.params])) !== undefined;
  },
  deleteOlderThan(tx, before, scope, limit) {
    const claim = claimOlderThan(tx.dialect, 'group_id, key', before, scope, limit);
    return tx.run(`DELETE FROM idempotency_keys WHERE (group_id, key) IN (${claim.sql})`, claim.params);
  },
};

/**
 * The purge's chunk: `columns` of at most `limit` (none: all) records of `scope` created
 * before `before`, claimed (rows another server's write holds are passed over). The
 * PostgreSQL store deletes by the same claim (postgres/repositories.ts).
 */
export function claimOlderThan(d: Dialect, columns: string, before: string, scope: GroupScope, limit: number | undefined): { sql: string; params: unknown[] } {
  const s = scopeCondition(scope);
  return { sql: `SELECT ${columns} FROM idempotency_keys WHERE created_at < ? AND ${s.sql} LIMIT ?${d.skipLocked}`, params: [before, ...s.params, limit ?? d.noLimit] };
}
