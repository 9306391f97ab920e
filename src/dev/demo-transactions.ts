// Demo data for transactions: a Visa card stored on the demo customer (`card_id`) and a
// few transactions in different states (`transaction_ids`): a pending sale, a declined
// sale, an authorized auth (from the stored card) and a captured auth.
import type { DemoStep } from './demo-step.js';
import { fixedToken } from '../services/tokens/tokens.js';
import { storeCard } from '../services/customers/customers.js';
import { createSale } from '../services/transactions/sale.js';
import { captureTransaction } from '../services/transactions/lifecycle.js';
import { contextFor } from '../services/context.js';
import { execute, executeRaw } from '../services/use-case.js';

/** The demo's billing address (a US one, so sales are allowed); tests pay with it too. */
export const DEMO_BILLING = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  line_1: '1 Main St',
  city: 'Springfield',
  subdivision: 'IL',
  postal_code: '62701',
  country: 'US',
  email: 'ada@example.com',
};

/** The card address of Add Card: the billing address without the person. */
export const DEMO_CARD_ADDRESS = {
  line_1: DEMO_BILLING.line_1,
  city: DEMO_BILLING.city,
  subdivision: DEMO_BILLING.subdivision,
  postal_code: DEMO_BILLING.postal_code,
  country: DEMO_BILLING.country,
};

export const transactionsDemoStep: DemoStep = {
  name: 'transactions',
  async run(p, state) {
    const groupId = state.group_id;
    const now = p.clock.now();
    const card = await p.db.write((tx) =>
      storeCard(tx, {
        groupId,
        customerId: state.customer_id,
        linkedAccountId: state.linked_account_id,
        token: fixedToken('tok_visa', now)!,
        billing: DEMO_CARD_ADDRESS,
        now: now.toISOString(),
      }),
    );
    const common = { source: 'api', processor_id: state.processor_id, currency: 'USD', email_address: DEMO_BILLING.email, email_receipt: false };
    const withToken = (token: string) => ({ billing_address: DEMO_BILLING, payment_details: { token } });
    const sale = await executeRaw(createSale, p, contextFor(p, groupId), { ...common, type: 'sale', amounts: { requested_amount: 2599 }, description: 'Demo sale', ...withToken('tok_visa') });
    const declined = await executeRaw(createSale, p, contextFor(p, groupId), { ...common, type: 'sale', amounts: { requested_amount: 1500 }, description: 'Demo declined sale', ...withToken('tok_visa_declined') });
    const authorized = await executeRaw(createSale, p, contextFor(p, groupId), {
      ...common,
      type: 'auth',
      amounts: { requested_amount: 5000 },
      description: 'Demo auth on the stored card',
      payment_details: { customer: { customer_id: state.customer_id, card_id: card.id } },
    });
    const toCapture = await executeRaw(createSale, p, contextFor(p, groupId), { ...common, type: 'auth', amounts: { requested_amount: 4200 }, description: 'Demo captured auth', ...withToken('tok_mastercard') });
    const captured = await execute(captureTransaction, p, contextFor(p, groupId), { transaction_id: toCapture.id, capture: { kind: 'exact', amount: toCapture.amounts.authorized_amount, path: 'amount' } });
    return { card_id: card.id, transaction_ids: [sale.id, declined.id, authorized.id, captured.id] };
  },
};
