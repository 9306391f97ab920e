// What the customer use cases (and charges from a stored method) need of a store, in
// domain entities; src/store implements it (repositories/customers.ts).
import type { Executor, Tx } from '../interfaces/db.js';
import type { CustomerBankAccountEntity, CustomerCardEntity, CustomerEntity } from '../../domain/customers.js';

/** What a charge needs of a customer. */
export type CustomerNames = Pick<CustomerEntity, 'id' | 'first_name' | 'last_name' | 'email' | 'billing_address'>;

export interface CustomerStore {
  insert(tx: Tx, c: CustomerEntity): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<CustomerEntity | undefined>;
  /** Newest first. */
  list(ex: Executor, groupId: string, limit: number, offset: number): Promise<CustomerEntity[]>;
}

export interface CustomerCardStore {
  insert(tx: Tx, c: CustomerCardEntity): Promise<void>;
  find(ex: Executor, groupId: string, customerId: string, id: string): Promise<CustomerCardEntity | undefined>;
  /** With the write's batch: the card (and its customer) still exist, else the write fails with `error()`. */
  deferStillThere(tx: Tx, groupId: string, customerId: string, id: string, error: () => unknown): void;
  /**
   * A customer and one of its cards at once: `card` is undefined when the customer has
   * no such card, both when there is no such customer.
   */
  findWithCustomer(ex: Executor, groupId: string, customerId: string, id: string): Promise<{ customer?: CustomerNames; card?: CustomerCardEntity }>;
  listByCustomer(ex: Executor, customerId: string): Promise<CustomerCardEntity[]>;
}

export interface CustomerBankAccountStore {
  insert(tx: Tx, b: CustomerBankAccountEntity): Promise<void>;
  find(ex: Executor, groupId: string, customerId: string, id: string): Promise<CustomerBankAccountEntity | undefined>;
  listByCustomer(ex: Executor, customerId: string): Promise<CustomerBankAccountEntity[]>;
}
