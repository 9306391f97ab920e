// What the outbox needs of a store, in domain entities; src/store implements it
// (repositories/outbox.ts).
import type { Executor, Tx } from '../interfaces/db.js';
import type { OutboxEntity } from '../../domain/email.js';

export interface OutboxStore {
  insert(tx: Tx, r: OutboxEntity): Promise<void>;
  find(ex: Executor, id: string): Promise<OutboxEntity | undefined>;
  /** Newest first; only `kind` when given. */
  list(ex: Executor, limit: number, offset: number, kind?: string): Promise<OutboxEntity[]>;
  markDelivered(tx: Tx, id: string, status: 'sent' | 'failed', error: string | null, at: string): Promise<unknown>;
}
