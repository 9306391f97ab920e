// Tokens: the TokenStore. cvv_supplied is 0/1 in the row, a boolean in the
// entity — converted here.
import type { TokenEntity } from '../../../domain/tokens.js';
import type { TokenStore } from '../../interfaces/tokens.js';
import { flagColumn } from '../columns.js';

interface TokenRow extends Omit<TokenEntity, 'cvv_supplied'> {
  cvv_supplied: number;
}

export const tokenRepo: TokenStore = {
  async insert(ex, r) {
    await ex.run(
      `INSERT INTO tokens (token, type, brand, card_type, first_six, last_four, exp_month, exp_year, holder_name,
        routing_number, account_type, cvv_supplied, test_outcome, created_at, expires_at, used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.token, r.type, r.brand, r.card_type, r.first_six, r.last_four, r.exp_month, r.exp_year, r.holder_name,
        r.routing_number, r.account_type, flagColumn(r.cvv_supplied), r.test_outcome, r.created_at, r.expires_at, r.used_at],
    );
  },
  async find(ex, token) {
    const row = await ex.get<TokenRow>('SELECT * FROM tokens WHERE token = ?', [token]);
    if (!row) return undefined;
    (row as unknown as TokenEntity).cvv_supplied = row.cvv_supplied === 1;
    return row as unknown as TokenEntity;
  },
  markUsed: (ex, token, at) => ex.run('UPDATE tokens SET used_at = ? WHERE token = ? AND used_at IS NULL', [at, token]),
  deleteExpired: (ex, before) => ex.run('DELETE FROM tokens WHERE expires_at < ?', [before]),
};
