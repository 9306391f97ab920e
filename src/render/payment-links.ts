// Human output of payment links for the CLI.
import { statusWord } from './colour.js';
import type { PaymentLink } from '../domain/payment-links.js';
import { keyValues, table } from './table.js';
import { dateTime, money, moneyWithCents } from './format.js';

export const linkAmount = (l: Pick<PaymentLink, 'amount'>): string => (l.amount === null ? 'open amount' : money(l.amount));

export function linkDetails(l: PaymentLink): string {
  const methods = [l.card_enabled ? 'card' : '', l.ach_enabled ? 'ACH' : ''].filter(Boolean).join(', ');
  return keyValues([
    ['id', l.id],
    ['status', statusWord(l.status)],
    ['amount', l.amount === null ? 'open amount (the payer names it)' : moneyWithCents(l.amount)],
    ['description', l.description],
    ['accepts', methods],
    ['pay page', l.url],
    ['redirect url', l.redirect_url || '(the pay page)'],
    ['expires', l.expires_at ? dateTime(l.expires_at) : 'never'],
    ['paid by', l.paid_transaction_id ?? ''],
    ['created', dateTime(l.created_at)],
  ]);
}

export function linkTable(items: PaymentLink[]): string {
  return table(['id', 'status', 'amount', { title: 'description', truncate: 16 }, 'created'], items.map((l) => [l.id, statusWord(l.status), linkAmount(l), l.description, dateTime(l.created_at)]));
}
