// What the payment-link services need from a store: links and their pay-page sessions,
// as domain entities. The SQLite repositories implement these.
import type { Executor, RunResult, Tx } from '../interfaces/db.js';
import type { LinkStatus, PaymentLinkEntity, PaymentLinkSessionEntity } from '../../domain/payment-links.js';

export interface PaymentLinkListFilter {
  groupId: string;
  /** The status as the API shows it (`expired` derived from expires_at at `now`). */
  status?: LinkStatus | undefined;
  now: string;
  limit: number;
  offset: number;
}

export interface PaymentLinkStore {
  insert(tx: Tx, link: PaymentLinkEntity): Promise<void>;
  find(ex: Executor, id: string): Promise<PaymentLinkEntity | undefined>;
  findInGroup(ex: Executor, groupId: string, id: string): Promise<PaymentLinkEntity | undefined>;
  /** Newest first. */
  list(ex: Executor, filter: PaymentLinkListFilter): Promise<PaymentLinkEntity[]>;
  count(ex: Executor, filter: PaymentLinkListFilter): Promise<number>;
  /** Compare-and-set: only a link that is available and not past its expiry becomes paid. */
  markPaid(tx: Tx, id: string, now: string): Promise<RunResult>;
  setPaidTransaction(tx: Tx, id: string, transactionId: string): Promise<RunResult>;
  /** Undo markPaid in the same write when the charge was declined: back to available, as it was. */
  reopen(tx: Tx, id: string, updatedAt: string): Promise<RunResult>;
  /** Compare-and-set: available (expired or not) → deactivated. */
  deactivate(tx: Tx, id: string, now: string): Promise<RunResult>;
}

export interface PaymentLinkSessionStore {
  insert(tx: Tx, session: PaymentLinkSessionEntity): Promise<void>;
  find(ex: Executor, tokenHash: string): Promise<PaymentLinkSessionEntity | undefined>;
  deleteExpiredBefore(tx: Tx, before: string): Promise<RunResult>;
}
