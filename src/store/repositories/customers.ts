import type { Executor, Tx } from '../db.js';

export interface CustomerRow {
  id: string;
  group_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  billing_address: string | null; // JSON
  created_at: string;
  updated_at: string;
}

/** What a charge needs of a customer. */
export type CustomerNames = Pick<CustomerRow, 'id' | 'first_name' | 'last_name' | 'email' | 'billing_address'>;

export interface CustomerCardRow {
  id: string;
  group_id: string;
  customer_id: string;
  linked_account_id: string | null;
  brand: string;
  card_type: string;
  card_category: string;
  first_six: string;
  last_four: string;
  exp_month: number;
  exp_year: number;
  holder_name: string;
  issuer: string;
  issuer_country: string;
  regulated: number;
  commercial: number;
  test_outcome: string;
  billing_address: string | null; // JSON
  created_at: string;
  updated_at: string;
}

export interface CustomerBankAccountRow {
  id: string;
  group_id: string;
  customer_id: string;
  routing_number: string;
  last_four: string;
  account_type: string;
  holder_name: string;
  test_outcome: string;
  created_at: string;
}

export const customerRepo = {
  async insert(ex: Tx, c: CustomerRow) {
    await ex.run(
      `INSERT INTO customers (id, group_id, first_name, last_name, email, phone, billing_address, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [c.id, c.group_id, c.first_name, c.last_name, c.email, c.phone, c.billing_address, c.created_at, c.updated_at],
    );
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<CustomerRow>('SELECT * FROM customers WHERE group_id = ? AND id = ?', [groupId, id]),
  list: (ex: Executor, groupId: string, limit: number, offset: number) =>
    ex.all<CustomerRow>('SELECT * FROM customers WHERE group_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [groupId, limit, offset]),
  updateBillingAddress: (ex: Tx, id: string, address: string, at: string) =>
    ex.run('UPDATE customers SET billing_address = ?, updated_at = ? WHERE id = ?', [address, at, id]),
};

export const customerCardRepo = {
  async insert(ex: Tx, c: CustomerCardRow) {
    await ex.run(
      `INSERT INTO customer_cards (id, group_id, customer_id, linked_account_id, brand, card_type, card_category, first_six,
         last_four, exp_month, exp_year, holder_name, issuer, issuer_country, regulated, commercial, test_outcome,
         billing_address, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [c.id, c.group_id, c.customer_id, c.linked_account_id, c.brand, c.card_type, c.card_category, c.first_six,
        c.last_four, c.exp_month, c.exp_year, c.holder_name, c.issuer, c.issuer_country, c.regulated, c.commercial,
        c.test_outcome, c.billing_address, c.created_at, c.updated_at],
    );
  },
  find: (ex: Executor, groupId: string, customerId: string, id: string) =>
    ex.get<CustomerCardRow>('SELECT * FROM customer_cards WHERE group_id = ? AND customer_id = ? AND id = ?', [groupId, customerId, id]),
  /** With the write's batch: the card (and its customer) still exist, else the write fails with `error()`. */
  deferStillThere(tx: Tx, groupId: string, customerId: string, id: string, error: () => unknown): void {
    tx.deferCheck(
      `SELECT 1 FROM customer_cards k JOIN customers c ON c.id = k.customer_id AND c.group_id = k.group_id
       WHERE k.id = ? AND k.customer_id = ? AND k.group_id = ?`,
      [id, customerId, groupId],
      error,
    );
  },
  /**
   * A customer and one of its cards in one statement (a stored-card sale reads both
   * before its write). `card` is undefined when
   * the customer has no such card, both when there is no such customer.
   */
  async findWithCustomer(ex: Executor, groupId: string, customerId: string, id: string): Promise<{ customer?: CustomerNames; card?: CustomerCardRow }> {
    const row = await ex.get<CustomerCardRow & { customer_row_id: string; customer_first_name: string; customer_last_name: string; customer_email: string; customer_billing_address: string | null }>(
      `SELECT k.*, c.id AS customer_row_id, c.first_name AS customer_first_name, c.last_name AS customer_last_name, c.email AS customer_email,
              c.billing_address AS customer_billing_address
       FROM customers c LEFT JOIN customer_cards k ON k.group_id = c.group_id AND k.customer_id = c.id AND k.id = ?
       WHERE c.group_id = ? AND c.id = ?`,
      [id, groupId, customerId],
    );
    if (!row) return {};
    const { customer_row_id, customer_first_name, customer_last_name, customer_email, customer_billing_address, ...card } = row;
    return {
      customer: { id: customer_row_id, first_name: customer_first_name, last_name: customer_last_name, email: customer_email, billing_address: customer_billing_address },
      card: card.id === null ? undefined : (card as CustomerCardRow),
    };
  },
  listByCustomer: (ex: Executor, customerId: string) =>
    ex.all<CustomerCardRow>('SELECT * FROM customer_cards WHERE customer_id = ? ORDER BY created_at, id', [customerId]),
};

export const customerBankAccountRepo = {
  async insert(ex: Tx, b: CustomerBankAccountRow) {
    await ex.run(
      `INSERT INTO customer_bank_accounts (id, group_id, customer_id, routing_number, last_four, account_type, holder_name, test_outcome, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [b.id, b.group_id, b.customer_id, b.routing_number, b.last_four, b.account_type, b.holder_name, b.test_outcome, b.created_at],
    );
  },
  find: (ex: Executor, groupId: string, customerId: string, id: string) =>
    ex.get<CustomerBankAccountRow>('SELECT * FROM customer_bank_accounts WHERE group_id = ? AND customer_id = ? AND id = ?', [groupId, customerId, id]),
  listByCustomer: (ex: Executor, customerId: string) =>
    ex.all<CustomerBankAccountRow>('SELECT * FROM customer_bank_accounts WHERE customer_id = ? ORDER BY created_at, id', [customerId]),
};
