// Human output of a customer with its stored cards and bank accounts.
import type { Customer } from '../domain/customers.js';
import { keyValues, table } from './table.js';
import { bankAccountText, cardText } from './format.js';

export function customerDetails(c: Customer): string {
  const parts = [keyValues([['id', c.id], ['name', `${c.first_name} ${c.last_name}`.trim()], ['email', c.email], ['phone', c.phone]])];
  if (c.cards.length) parts.push(table(['card id', 'card', 'expires'], c.cards.map((k) => [k.card_id, cardText(k), k.expiration])));
  if (c.bank_accounts.length) {
    parts.push(table(['bank account id', 'routing', 'account'], c.bank_accounts.map((b) => [b.bank_account_id, b.routing_number, bankAccountText(b)])));
  }
  return parts.join('\n');
}
