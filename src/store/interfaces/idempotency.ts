// What Idempotency-Key handling needs of a store, in domain entities; src/store
// implements it (repositories/idempotency.ts).
import type { Executor, RunResult, Tx } from '../interfaces/db.js';
import type { GroupScope } from './scope.js';

/** A completed request of a key: the answer it gave, as the value that was sent. */
export interface IdempotencyRecord {
  /** The key's scope: the API key's group, or 'public'. */
  group_id: string;
  key: string;
  request_hash: string;
  status: number;
  /** The JSON value answered. */
  body: unknown;
  created_at: string;
  /** Real time (ms) until which the answer is still being settled after the commit (a replay gets 409); null: settled. */
  settling_until: number | null;
}

export interface IdempotencyStore {
  find(ex: Executor, scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Inside a write: sent with the write's other rows (a later read of the table sees it). */
  insert(tx: Tx, r: IdempotencyRecord): void;
  /** The final answer: settled (no longer running). */
  setAnswer(tx: Tx, scope: string, key: string, status: number, body: unknown): Promise<RunResult>;
  /** Records of `scope` (a group scope, or the key scope 'public') created before `before`. */
  hasOlderThan(ex: Executor, before: string, scope: GroupScope): Promise<boolean>;
  /** Delete them, at most `limit` (default: all). */
  deleteOlderThan(tx: Tx, before: string, scope: GroupScope, limit?: number): Promise<RunResult>;
}
