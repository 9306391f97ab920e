// Finding an object by its id within a group, through each kind's own get use case (the
// object exactly as the API answers it). Plans and subscriptions are found per linked
// account; a card through the customers that hold cards (the first pages of them).
import { getTransaction } from '../../../services/transactions/lifecycle.js';
import { getCustomer, listCustomers } from '../../../services/customers/customers.js';
import { getPlan } from '../../../services/recurring/plans.js';
import { getSubscription } from '../../../services/recurring/subscriptions.js';
import { getProduct } from '../../../services/catalog/products.js';
import { getInvoice } from '../../../services/catalog/invoices.js';
import { getPartner } from '../../../services/catalog/partners.js';
import { getPaymentLink } from '../../../services/payment-links/payment-links.js';
import { getEvent } from '../../../services/events/events.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { PAGE_LIMIT_MAX } from '../../../domain/paging.js';
import { linkedAccountsOf, orMissing, type GroupScope } from '../scope.js';

/** Customers read when looking for a card (pages of the API's largest size). */
const CARD_SCAN_PAGES = 5;

type Finder = (s: GroupScope, id: string) => Promise<unknown>;

async function perAccount<T>(s: GroupScope, get: (account: string) => Promise<T>): Promise<T | undefined> {
  for (const a of await linkedAccountsOf(s)) {
    const found = await orMissing(get(a.id));
    if (found !== undefined) return found;
  }
  return undefined;
}

async function findCard(s: GroupScope, id: string): Promise<unknown> {
  for (let page = 0; page < CARD_SCAN_PAGES; page++) {
    const customers = await executeRaw(listCustomers, s.g, s.ctx, { limit: String(PAGE_LIMIT_MAX), offset: String(page * PAGE_LIMIT_MAX) });
    for (const c of customers) {
      const card = c.cards.find((x) => x.card_id === id);
      if (card) return { ...card, customer_id: c.id };
    }
    if (customers.length < PAGE_LIMIT_MAX) return undefined;
  }
  return undefined;
}

/** The kinds search tries, in this order, and how each is read. */
export const FINDERS: Record<string, Finder> = {
  transaction: (s, id) => orMissing(execute(getTransaction, s.g, s.ctx, { transaction_id: id })),
  customer: (s, id) => orMissing(execute(getCustomer, s.g, s.ctx, { customer_id: id })),
  event: (s, id) => orMissing(execute(getEvent, s.g, s.ctx, { event_id: id })),
  subscription: (s, id) => perAccount(s, (a) => execute(getSubscription, s.g, s.ctx, { linked_account_id: a, subscription_id: id })),
  plan: (s, id) => perAccount(s, (a) => executeRaw(getPlan, s.g, s.ctx, { linked_account_id: a, plan_id: id })),
  invoice: (s, id) => orMissing(execute(getInvoice, s.g, s.ctx, { invoice_id: id })),
  product: (s, id) => orMissing(executeRaw(getProduct, s.g, s.ctx, { product_id: id })),
  partner: (s, id) => orMissing(executeRaw(getPartner, s.g, s.ctx, { partner_id: id })),
  payment_link: (s, id) => orMissing(executeRaw(getPaymentLink, s.g, s.ctx, { payment_link_id: id })),
  card: findCard,
};

export const KIND_LABELS: Record<string, string> = {
  transaction: 'Transaction',
  customer: 'Customer',
  event: 'Event',
  subscription: 'Subscription',
  plan: 'Plan',
  invoice: 'Invoice',
  product: 'Product',
  partner: 'Partner',
  payment_link: 'Payment link',
  card: 'Card',
};

/** The first kind whose object has this id in the group. */
export async function findAnyKind(s: GroupScope, id: string): Promise<{ kind: string; object: unknown } | undefined> {
  for (const [kind, find] of Object.entries(FINDERS)) {
    const object = await find(s, id);
    if (object !== undefined) return { kind, object };
  }
  return undefined;
}
