// What the transaction use cases need of a store, in domain entities. src/store
// implements it on SQLite (repositories/transactions.ts, settlement.ts); a second store
// implements the same interfaces and nothing above src/store changes.
import type { Executor, Tx } from '../interfaces/db.js';
import type { TransactionEntity } from '../../domain/transactions.js';
import type { GroupScope } from './scope.js';

export interface TransactionStore {
  /** Inside a write: the new transaction, committed with the write (and counted into the reporting rollup). */
  insert(tx: Tx, t: TransactionEntity): void;
  /** Many new transactions in one statement (seeding, tests). */
  insertMany(tx: Tx, ts: readonly TransactionEntity[]): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<TransactionEntity | undefined>;
  setCustomer(tx: Tx, id: string, customerId: string): Promise<unknown>;
  /** Compare-and-set status change: only from one of `from`; answers how many changed (0 or 1). */
  setStatus(tx: Tx, id: string, from: readonly string[], to: string, at: string): Promise<{ changes: number }>;
  /**
   * Capture as a compare-and-set sent with the write's batch: the write fails with
   * `error()` unless the transaction was still authorized for at least `captured`.
   */
  deferCapture(tx: Tx, id: string, captured: number, status: string, at: string, error: () => unknown): void;
  /** A refused capture: the processor's code on a still-authorized transaction, compare-and-set; answers how many changed. */
  recordCaptureDecline(tx: Tx, id: string, responseCode: string, responseText: string, at: string): Promise<{ changes: number }>;
  /** Refund `amount` of a settled (or partially refunded) transaction, compare-and-set; answers how many changed. */
  refund(tx: Tx, id: string, amount: number, at: string): Promise<{ changes: number }>;
}

/** A transaction due to settle: what the batching needs. */
export interface SettleCandidate {
  id: string;
  group_id: string;
  created_at: string;
  amount: number;
}

/** A settlement batch as it is first written (its totals set once its transactions moved). */
export interface SettlementBatchEntity {
  id: string;
  group_id: string;
  cutoff_at: string;
  transaction_count: number;
  total_amount: number;
  created_at: string;
}

export interface SettlementStore {
  /** Pending sales and captured auths of the groups in `scope` created before `before`, oldest first. */
  candidates(ex: Executor, before: string, limit: number, scope: GroupScope): Promise<SettleCandidate[]>;
  /** The same, claimed by this write (a settlement chunk): rows another server's write holds are passed over. */
  claimCandidates(tx: Tx, before: string, limit: number, scope: GroupScope): Promise<SettleCandidate[]>;
  insertBatch(tx: Tx, b: SettlementBatchEntity): Promise<void>;
  /** Compare-and-set of a batch's transactions to settled: the transactions it actually moved, in id order. */
  settle(tx: Tx, ids: readonly string[], batchId: string, at: string): Promise<TransactionEntity[]>;
  /** totalAmount is exact (a bigint beyond 2^53): stored as an integer, or as its decimal text beyond 64 bits. */
  setBatchTotals(tx: Tx, id: string, transactionCount: number, totalAmount: number | bigint): Promise<unknown>;
  deleteBatch(tx: Tx, id: string): Promise<unknown>;
  hasExpiringAuths(ex: Executor, createdBefore: string, scope: GroupScope): Promise<boolean>;
  /** Expire auths created before `createdBefore` (at most `limit`, oldest first): the transactions it moved. */
  expireAuths(tx: Tx, createdBefore: string, at: string, scope: GroupScope, limit?: number): Promise<TransactionEntity[]>;
}
