// Customers and their vault: the customer stores of the use cases. Billing
// addresses are JSON text and regulated/commercial 0/1 in the rows; objects and booleans
// in the entities — converted here and nowhere else.
import { getFresh, isStore, type Check, type Executor, type Store } from '../../interfaces/db.js';
import type { CustomerBankAccountEntity, CustomerCardEntity, CustomerEntity } from '../../../domain/customers.js';
import type { CustomerBankAccountStore, CustomerCardStore, CustomerNames, CustomerStore } from '../../interfaces/customers.js';
import { flagColumn, fromJsonColumn, jsonColumn } from '../columns.js';

interface CustomerRow extends Omit<CustomerEntity, 'billing_address'> {
  billing_address: string | null; // JSON
}

/** A stored card's row (JSON text and 0/1 where the entity has an object and booleans). */
export interface CustomerCardRow extends Omit<CustomerCardEntity, 'regulated' | 'commercial' | 'billing_address'> {
  regulated: number;
  commercial: number;
  billing_address: string | null; // JSON
}

/** A stored bank account's row: the entity as it is (text only). */
export type CustomerBankAccountRow = CustomerBankAccountEntity;


// Rows fresh from the driver become entities in place (nobody else holds them).
function toCustomer(row: CustomerRow): CustomerEntity {
  (row as unknown as CustomerEntity).billing_address = fromJsonColumn<Record<string, string>>(row.billing_address);
  return row as unknown as CustomerEntity;
}

/** The entity of a stored card's row (in place). */
export function toCustomerCardEntity(row: CustomerCardRow): CustomerCardEntity {
  const card = row as unknown as CustomerCardEntity;
  card.regulated = row.regulated === 1;
  card.commercial = row.commercial === 1;
  card.billing_address = fromJsonColumn<Record<string, string>>(row.billing_address) ?? {};
  return card;
}

/** Stored-card lookups kept per database: past this many the map is emptied. */
const MAX_CACHED_CARDS = 10_000;
type StoredCard = { customer?: CustomerNames; card?: CustomerCardEntity };
const cachedCards = new WeakMap<Store, { version: number; rows: Map<string, StoredCard> }>();

/** The database's stored-card cache, emptied when the vault's change counter moved (a read shared by concurrent callers). */
async function storedCards(db: Store): Promise<{ version: number; rows: Map<string, StoredCard> }> {
  const version = (await getFresh<{ n: number }>(db, 'SELECT n FROM vault_version WHERE id = 1'))?.n ?? -1;
  let cache = cachedCards.get(db);
  if (!cache || cache.version !== version) cachedCards.set(db, (cache = { version, rows: new Map() }));
  return cache;
}

export const customerRepo: CustomerStore = {
  async insert(ex, c) {
    await ex.run(
      `INSERT INTO customers (id, group_id, first_name, last_name, email, phone, billing_address, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [c.id, c.group_id, c.first_name, c.last_name, c.email, c.phone, jsonColumn(c.billing_address), c.created_at, c.updated_at],
    );
  },
  find: async (ex, groupId, id) => {
    const row = await ex.get<CustomerRow>('SELECT * FROM customers WHERE group_id = ? AND id = ?', [groupId, id]);
    return row && toCustomer(row);
  },
  list: async (ex, groupId, limit, offset) =>
    (await ex.all<CustomerRow>('SELECT * FROM customers WHERE group_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [groupId, limit, offset])).map(toCustomer),
};

/** A stored card and its customer are still there (a stored-card sale read them before its write). */
const CARD_STILL_THERE: Check = {
  sql: `SELECT 1 FROM customer_cards k JOIN customers c ON c.id = k.customer_id AND c.group_id = k.group_id
       WHERE k.id = ? AND k.customer_id = ? AND k.group_id = ?`,
  reads: ['customer_cards', 'customers'],
};

export const customerCardRepo: CustomerCardStore = {
  async insert(ex, c) {
    await ex.run(
      `INSERT INTO customer_cards (id, group_id, customer_id, linked_account_id, brand, card_type, card_category, first_six,
         last_four, exp_month, exp_year, holder_name, issuer, issuer_country, regulated, commercial, test_outcome,
         billing_address, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [c.id, c.group_id, c.customer_id, c.linked_account_id, c.brand, c.card_type, c.card_category, c.first_six,
        c.last_four, c.exp_month, c.exp_year, c.holder_name, c.issuer, c.issuer_country, flagColumn(c.regulated), flagColumn(c.commercial),
        c.test_outcome, JSON.stringify(c.billing_address), c.created_at, c.updated_at],
    );
  },
  find: async (ex, groupId, customerId, id) => {
    const row = await ex.get<CustomerCardRow>('SELECT * FROM customer_cards WHERE group_id = ? AND customer_id = ? AND id = ?', [groupId, customerId, id]);
    return row && toCustomerCardEntity(row);
  },
  deferStillThere(tx, groupId, customerId, id, error) {
    tx.deferCheck(CARD_STILL_THERE, [id, customerId, groupId], error);
  },
  /**
   * A stored-card sale reads both before its write, in one statement. On the database's
   * reader a found pair is then served from memory (frozen: shared by requests) while the
   * vault's change counter stays where it was — customers and cards change rarely, a sale
   * reads them every time.
   */
  async findWithCustomer(ex: Executor, groupId: string, customerId: string, id: string): Promise<{ customer?: CustomerNames; card?: CustomerCardEntity }> {
    const cache = isStore(ex) ? await storedCards(ex) : undefined;
    const key = `${groupId}\u0000${customerId}\u0000${id}`;
    const hit = cache?.rows.get(key);
    if (hit) return hit;
    const row = await ex.get<CustomerCardRow & { customer_row_id: string; customer_first_name: string; customer_last_name: string; customer_email: string; customer_billing_address: string | null }>(
      `SELECT k.*, c.id AS customer_row_id, c.first_name AS customer_first_name, c.last_name AS customer_last_name, c.email AS customer_email,
              c.billing_address AS customer_billing_address
       FROM customers c LEFT JOIN customer_cards k ON k.group_id = c.group_id AND k.customer_id = c.id AND k.id = ?
       WHERE c.group_id = ? AND c.id = ?`,
      [id, groupId, customerId],
    );
    if (!row) return {};
    const { customer_row_id, customer_first_name, customer_last_name, customer_email, customer_billing_address, ...card } = row;
    const found = {
      customer: { id: customer_row_id, first_name: customer_first_name, last_name: customer_last_name, email: customer_email, billing_address: fromJsonColumn<Record<string, string>>(customer_billing_address) },
      card: card.id === null ? undefined : toCustomerCardEntity(card as CustomerCardRow),
    };
    // Kept only if the counter has not moved since it was read (a row read just before a change must not outlive it).
    if (cache && found.card && cache === cachedCards.get(ex as Store)) {
      if (cache.rows.size >= MAX_CACHED_CARDS) cache.rows.clear();
      Object.freeze(found.customer.billing_address);
      Object.freeze(found.customer);
      Object.freeze(found.card.billing_address);
      Object.freeze(found.card);
      cache.rows.set(key, Object.freeze(found));
    }
    return found;
  },
  listByCustomer: async (ex, customerId) =>
    (await ex.all<CustomerCardRow>('SELECT * FROM customer_cards WHERE customer_id = ? ORDER BY created_at, id', [customerId])).map(toCustomerCardEntity),
};

export const customerBankAccountRepo: CustomerBankAccountStore = {
  async insert(ex, b) {
    await ex.run(
      `INSERT INTO customer_bank_accounts (id, group_id, customer_id, routing_number, last_four, account_type, holder_name, test_outcome, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [b.id, b.group_id, b.customer_id, b.routing_number, b.last_four, b.account_type, b.holder_name, b.test_outcome, b.created_at],
    );
  },
  find: (ex, groupId, customerId, id) =>
    ex.get<CustomerBankAccountEntity>('SELECT * FROM customer_bank_accounts WHERE group_id = ? AND customer_id = ? AND id = ?', [groupId, customerId, id]),
  listByCustomer: (ex, customerId) =>
    ex.all<CustomerBankAccountEntity>('SELECT * FROM customer_bank_accounts WHERE customer_id = ? ORDER BY created_at, id', [customerId]),
};
