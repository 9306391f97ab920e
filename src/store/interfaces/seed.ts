// Bulk loading for `payctl dev seed`: rows as stored (encoded columns), many per statement.
import type { Tx, RunResult } from './db.js';
import type { TransactionEntity } from '../../domain/transactions.js';

/** JSON text and 0/1 in the row where the entity has objects and a boolean. */
type EncodedColumn = 'email_receipt' | 'billing_address' | 'shipping_address' | 'custom_fields' | 'commissions';

/** A stored transaction row (bulk seeding writes rows directly): the entity with those columns encoded. */
export interface TransactionRow extends Omit<TransactionEntity, EncodedColumn> {
  email_receipt: number;
  billing_address: string | null;
  shipping_address: string | null;
  custom_fields: string | null;
  commissions: string | null;
}

export interface BulkShape {
  /** Columns read from each row, in this order. */
  columns: Array<keyof TransactionRow>;
  /** Columns with one value for every row (bound once per statement). */
  constants: Partial<TransactionRow>;
}

export interface SeedStore {
  /** Many transaction rows in one statement. */
  insertTransactions(tx: Tx, rows: TransactionRow[], shape: BulkShape): Promise<void>;
  /**
   * Insert many transactions (`insert`) inside `tx` and count them into the reporting
   * rollup in one aggregate in the same transaction, so every commit leaves it exact.
   */
  insertCountedInRollup(tx: Tx, insert: () => Promise<void>): Promise<void>;
  /** Settings for a long load on the writing connection (only `payctl dev seed`; the process ends after). */
  bulkLoadCache(tx: Tx): Promise<RunResult>;
  setBatchTotals(tx: Tx, id: string, count: number, total: number): Promise<RunResult>;
  deleteBatch(tx: Tx, id: string): Promise<RunResult>;
}
