// Valid request bodies used by the reliability and security suites.
import { DEMO_BILLING, DEMO_CARD_ADDRESS } from '../../src/dev/demo-transactions.js';

export const US_BILLING = DEMO_BILLING;
export const CARD_ADDRESS = DEMO_CARD_ADDRESS;

/** A sale (or auth) paid with a token; `order_id` lets a test find the row it created. */
export function saleBody(processorId: string, opts: { token?: string; amount?: number; type?: 'sale' | 'auth'; orderId?: string; emailReceipt?: boolean } = {}) {
  return {
    type: opts.type ?? 'sale',
    source: 'api',
    processor_id: processorId,
    currency: 'USD',
    email_address: 'buyer@example.com',
    email_receipt: opts.emailReceipt ?? false,
    amounts: { requested_amount: opts.amount ?? 1234 },
    billing_address: US_BILLING,
    ...(opts.orderId ? { order_id: opts.orderId } : {}),
    payment_details: { token: opts.token ?? 'tok_visa' },
  };
}

/** Tokenizer body for a card number. */
export function cardTokenBody(number: string, cvv: string) {
  return { card: { number, expiration_month: 12, expiration_year: 2039, cvv, holder_name: 'Test Holder' } };
}
