// What the onboarding services need from a store: signup forms and the entries made on
// them, as domain records (the entry as its object). src/store implements it
// (repositories/onboarding.ts).
import type { Executor, Tx } from '../interfaces/db.js';
import type { SignupEntryEntity } from '../../domain/onboarding.js';
import type { SignupForm } from '../../domain/onboarding/response.js';

export interface SignupFormStore {
  insert(tx: Tx, form: SignupForm): Promise<void>;
  find(ex: Executor, id: string): Promise<SignupForm | undefined>;
  /** Oldest first. */
  list(ex: Executor): Promise<SignupForm[]>;
}

export interface SignupEntryStore {
  insert(tx: Tx, entry: SignupEntryEntity): Promise<void>;
  find(ex: Executor, id: string): Promise<SignupEntryEntity | undefined>;
}
