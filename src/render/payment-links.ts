// Human output of payment links for the CLI.
import { statusWord } from './colour.js';
import type { PaymentLink } from '../domain/payment-links.js';
import { formatMoney } from '../domain/money.js';
import { keyValues, when } from './table.js';

export const linkAmount = (l: Pick<PaymentLink, 'amount'>): string => (l.amount === null ? 'open amount' : formatMoney(l.amount));

export function linkDetails(l: PaymentLink): string {
  const methods = [l.card_enabled ? 'card' : '', l.ach_enabled ? 'ACH' : ''].filter(Boolean).join(', ');
  return keyValues([
    ['id', l.id],
    ['status', statusWord(l.status)],
    ['amount', l.amount === null ? 'open amount (the payer names it)' : `${formatMoney(l.amount)} (${l.amount} cents)`],
    ['description', l.description],
    ['accepts', methods],
    ['pay page', l.url],
    ['redirect url', l.redirect_url || '(the pay page)'],
    ['expires', l.expires_at ? when(l.expires_at) : 'never'],
    ['paid by', l.paid_transaction_id ?? ''],
    ['created', when(l.created_at)],
  ]);
}
