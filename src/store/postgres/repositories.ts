// The PostgreSQL store's repositories: the shared ones (../sql/repositories, in this
// store's dialect), its own seed, and its own idempotency purge.
import type { Repositories } from '../interfaces/store.js';
import { sharedRepositories } from '../sql/repositories/index.js';
import { seedBatches } from '../sql/repositories/seed.js';
import type { SeedStore } from '../interfaces/seed.js';
import { pgRollup } from './rollup.js';
import type { IdempotencyStore } from '../interfaces/idempotency.js';
import { claimOlderThan } from '../sql/repositories/idempotency.js';
import { pgEventRepo } from './events.js';
/** Bound parameters per statement (PostgreSQL's limit is 65,535). */
const MAX_PARAMS = 60_000;

/**
 * Bulk seeding (`payctl dev seed`): multi-row INSERTs of bound values, and the rollup
 * counted from the rows this transaction wrote (their xmin is its id: PostgreSQL has no
 * rowid to tell new rows apart).
 */
const seed: SeedStore = {
  async insertTransactions(tx, rows, shape) {
    if (rows.length === 0) return;
    const fixed = Object.keys(shape.constants) as Array<keyof typeof shape.constants>;
    const columns = [...fixed, ...shape.columns];
    const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per);
      const params: unknown[] = [];
      for (const r of chunk) {
        for (const c of fixed) params.push(shape.constants[c]);
        for (const c of shape.columns) params.push(r[c]);
      }
      const row = `(${columns.map(() => '?').join(', ')})`;
      await tx.run(`INSERT INTO transactions (${columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`, params);
    }
  },
  async insertCountedInRollup(tx, insert) {
    await insert();
    await tx.run(pgRollup.addTransactions('WHERE xmin = pg_current_xact_id()::xid'));
  },
  bulkLoadCache: async () => ({ changes: 0 }),
  ...seedBatches,
};

/**
 * The idempotency purge deletes the rows its claim locked by their place in the table
 * (ctid: a TID scan). Matched back by (group_id, key) instead, PostgreSQL hash-joins a
 * sequential scan of the whole table to the chunk (SQLite looks each one up by the
 * primary key). A row the claim locked stays where it is until this statement ends.
 */
const idempotency: IdempotencyStore = {
  ...sharedRepositories.idempotency,
  deleteOlderThan(tx, before, scope, limit) {
    const claim = claimOlderThan(tx.dialect, 'ctid', before, scope, limit);
    return tx.run(`DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(${claim.sql}))`, claim.params);
  },
};

export const postgresRepositories: Repositories = Object.freeze({ ...sharedRepositories, seed, idempotency, events: pgEventRepo });
