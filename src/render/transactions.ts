// Human output of transactions, stored cards and tokens: the receipt that sale, auth,
// capture, void, refund and transaction get print, and the card of card add.
import type { Transaction } from '../domain/transactions.js';
import type { CustomerCard } from '../domain/customers.js';
import type { TokenResponse } from '../domain/tokens.js';
import { statusWord } from './colour.js';
import { keyValues } from './table.js';
import { cardText, dateTime, money, moneyWithCents, paymentMethodText } from './format.js';

/** How a transaction was paid: "Visa …1111", "ACH checking …6789". */
export const paidWith = (t: Transaction): string => paymentMethodText(t.payment_details, t.payment_method);

/** The short human receipt of a transaction. */
export function receipt(t: Transaction): string {
  const a = t.amounts;
  const pairs: Array<[string, string]> = [
    ['id', t.id],
    ['status', statusWord(t.status)],
    ['type', t.transaction_type],
    ['amount', moneyWithCents(a.requested_amount, t.currency)],
  ];
  if (t.transaction_type === 'auth' && a.authorized_amount > 0) pairs.push(['authorized', money(a.authorized_amount, t.currency)]);
  if (a.captured_amount > 0 && (t.transaction_type === 'auth' || a.captured_amount !== a.requested_amount)) {
    pairs.push(['captured', money(a.captured_amount, t.currency)]);
  }
  if (a.refunded_amount > 0) pairs.push(['refunded', money(a.refunded_amount, t.currency)]);
  pairs.push(['paid with', paidWith(t)]);
  pairs.push(['response', `${t.response_code} ${t.response_text}`]);
  if (t.customer_id) pairs.push(['customer', t.customer_id]);
  if (t.settlement_batch_ids.length) pairs.push(['batch', t.settlement_batch_ids.join(', ')]);
  return keyValues(pairs);
}

/** The receipt and where the transaction came from, for `transaction get`. */
export function transactionDetails(t: Transaction): string {
  return `${receipt(t)}\n${keyValues([
    ['source', t.source],
    ['processor', `${t.processor_name} (${t.processor_id})`],
    ['created', dateTime(t.created_at)],
    ['updated', dateTime(t.updated_at)],
  ])}`;
}

/** A stored card. */
export function cardSummary(c: CustomerCard): string {
  return keyValues([
    ['card id', c.card_id],
    ['card', cardText(c)],
    ['expires', c.expiration],
    ['holder', c.holder_name],
    ['issuer', `${c.issuer} (${c.issuer_country})`],
  ]);
}

/** A minted token and what it stands for. */
export function tokenSummary(token: TokenResponse): string {
  return keyValues([
    ['token', token.token],
    ['type', token.type],
    ['method', paymentMethodText(token, token.type)],
    ['expires', dateTime(token.expires_at)],
  ]);
}
