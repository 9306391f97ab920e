// The seed's statements both stores share: the totals of the settlement batches a seed
// makes. How rows are bulk-loaded is each store's own (sqlite/seed.ts,
// postgres/repositories.ts).
import type { Tx } from '../../interfaces/db.js';
import type { SeedStore } from '../../interfaces/seed.js';

export const seedBatches: Pick<SeedStore, 'setBatchTotals' | 'deleteBatch'> = {
  setBatchTotals: (ex: Tx, id: string, count: number, total: number) =>
    ex.run('UPDATE settlement_batches SET transaction_count = ?, total_amount = ? WHERE id = ?', [count, total, id]),
  deleteBatch: (ex: Tx, id: string) => ex.run('DELETE FROM settlement_batches WHERE id = ?', [id]),
};
