// The transaction receipt e-mail: its subject and text. It names the payment method by
// brand (or account type) and last four only (src/domain/payment-method-text.ts).
import { formatMoney, type ExactInt } from '../domain/money.js';
import { bankAccountText, cardText } from '../domain/payment-method-text.js';

export interface ReceiptFacts {
  id: string;
  requested_amount: ExactInt;
  description: string | null;
  status: string;
  /** An auth's receipt says "authorized", a sale's "paid". */
  authorized: boolean;
  method: { payment_method: string; brand: string | null; card_type: string | null; last_four: string };
}

export function receiptEmail(t: ReceiptFacts): { subject: string; body: string } {
  const m = t.method;
  const method = m.payment_method === 'card' ? cardText({ brand: m.brand, last_four: m.last_four }) : bankAccountText({ account_type: m.card_type, last_four: m.last_four });
  return {
    subject: `Receipt: ${formatMoney(t.requested_amount)} ${t.authorized ? 'authorized' : 'paid'}`,
    body: [
      `Amount: ${formatMoney(t.requested_amount)}`,
      `Paid with: ${method}`,
      `Transaction: ${t.id}`,
      t.description ? `Description: ${t.description}` : '',
      `Status: ${t.status}`,
    ]
      .filter(Boolean)
      .join('\n'),
  };
}
