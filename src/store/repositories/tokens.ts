import type { Executor, Tx } from '../db.js';

export interface TokenRow {
  token: string;
  type: 'card' | 'bank_account';
  brand: string | null;
  card_type: string | null;
  first_six: string | null;
  last_four: string;
  exp_month: number | null;
  exp_year: number | null;
  holder_name: string;
  routing_number: string | null;
  account_type: string | null;
  cvv_supplied: number;
  test_outcome: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface TokenRepository {
  insert(ex: Tx, row: TokenRow): Promise<void>;
  find(ex: Executor, token: string): Promise<TokenRow | undefined>;
  markUsed(ex: Tx, token: string, at: string): Promise<{ changes: number }>;
  deleteExpired(ex: Tx, before: string): Promise<{ changes: number }>;
}

export const tokenRepo: TokenRepository = {
  async insert(ex, r) {
    await ex.run(
      `INSERT INTO tokens (token, type, brand, card_type, first_six, last_four, exp_month, exp_year, holder_name,
        routing_number, account_type, cvv_supplied, test_outcome, created_at, expires_at, used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.token, r.type, r.brand, r.card_type, r.first_six, r.last_four, r.exp_month, r.exp_year, r.holder_name,
        r.routing_number, r.account_type, r.cvv_supplied, r.test_outcome, r.created_at, r.expires_at, r.used_at],
    );
  },
  find: (ex, token) => ex.get<TokenRow>('SELECT * FROM tokens WHERE token = ?', [token]),
  markUsed: (ex, token, at) => ex.run('UPDATE tokens SET used_at = ? WHERE token = ? AND used_at IS NULL', [at, token]),
  deleteExpired: (ex, before) => ex.run('DELETE FROM tokens WHERE expires_at < ?', [before]),
};
