// Human output of a customer with its stored cards and bank accounts.
import type { Customer, CustomerCard } from '../domain/customers.js';
import { keyValues, table } from './table.js';
import { bankAccountText, cardText, dateTime } from './format.js';

export function customerDetails(c: Customer): string {
  const parts = [keyValues([['id', c.id], ['name', `${c.first_name} ${c.last_name}`.trim()], ['email', c.email], ['phone', c.phone]])];
  if (c.cards.length) parts.push(cardTable(c.cards));
  if (c.bank_accounts.length) {
    parts.push(table(['bank account id', 'routing', 'account'], c.bank_accounts.map((b) => [b.bank_account_id, b.routing_number, bankAccountText(b)])));
  }
  return parts.join('\n');
}

export const cardTable = (cards: CustomerCard[]): string => table(['card id', 'card', 'expires'], cards.map((k) => [k.card_id, cardText(k), k.expiration]));

/** One row per customer: who, how to reach them, what they have stored. */
export const customerTable = (items: Customer[]): string =>
  table(
    ['id', { title: 'name', truncate: 12 }, { title: 'email', truncate: 12 }, 'cards', 'bank accounts', 'created'],
    items.map((c) => [c.id, `${c.first_name} ${c.last_name}`.trim(), c.email ?? '', c.cards.length, c.bank_accounts.length, dateTime(c.created_at)]),
  );
