// What the tokenizer and the charges that use tokens need of a store, in domain
// entities; src/store implements it (repositories/tokens.ts).
import type { Executor, Tx } from '../interfaces/db.js';
import type { TokenEntity } from '../../domain/tokens.js';

export interface TokenStore {
  insert(tx: Tx, t: TokenEntity): Promise<void>;
  find(ex: Executor, token: string): Promise<TokenEntity | undefined>;
  /** Compare-and-set: marks the token used only if it was not; answers how many changed. */
  markUsed(tx: Tx, token: string, at: string): Promise<{ changes: number }>;
  deleteExpired(tx: Tx, before: string): Promise<{ changes: number }>;
}
