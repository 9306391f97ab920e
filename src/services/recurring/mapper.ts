// A subscription row as the API's Subscription object: one mapper for the routes, the
// billing job's events and a plan update's events (so an event's data.object is what
// GET answers), beside both the subscription use cases and billing rather than in either.
import type { Subscription } from '../../domain/recurring.js';
import type { SubscriptionEntity } from '../../domain/recurring/entities.js';
import type { PaymentMethods } from '../../store/interfaces/recurring.js';

/** A subscription as the spec's Subscription object; `methods` holds its stored card or bank account. */
export function toSubscription(row: SubscriptionEntity, methods: PaymentMethods): Subscription {
  let card: { brand: string; card_type: string; first_six: string; last_four: string } | undefined;
  let bank: { account_type: string; last_four: string } | undefined;
  if (row.card_id) {
    const c = methods.cards.get(row.card_id);
    if (c) card = { brand: c.brand, card_type: c.card_type, first_six: c.first_six, last_four: c.last_four };
  } else if (row.bank_account_id) {
    const b = methods.banks.get(row.bank_account_id);
    if (b) bank = { account_type: b.account_type, last_four: b.last_four };
  } else if (row.token_snapshot) {
    const t = row.token_snapshot;
    if (t.type === 'card') card = { brand: t.brand ?? '', card_type: t.card_type ?? '', first_six: t.first_six ?? '', last_four: t.last_four };
    else bank = { account_type: t.account_type ?? '', last_four: t.last_four };
  }
  return {
    id: row.id,
    plan_id: row.plan_id,
    customer_id: row.customer_id,
    duration: row.duration,
    amounts: {
      amount: row.amount,
      tax_amount: row.tax_amount,
      initial_amount: row.initial_amount,
      shipping_amount: row.shipping_amount,
    },
    billing_cycle: row.billing_cycle,
    billing_factor: row.billing_factor,
    next_bill_date: row.next_bill_date,
    description: row.description,
    currency: 'USD',
    processor_id: row.processor_id,
    retry_count: row.retry_count,
    metadata: {
      billing_period_start: row.billing_period_start,
      billing_period_end: row.billing_period_end,
      max_retry_count: row.max_retry_count,
      form_layout_id: null,
      form_layout_external_id: null,
      form_entry_id: null,
      charge_count: row.charge_count,
      failure_attempt_count: row.failure_attempt_count,
    },
    payment_method: row.payment_method,
    payment_details: { ...(card ? { card } : {}), ...(bank ? { bank_account: bank } : {}) },
    billing_address: { address: row.billing_address as Subscription['billing_address']['address'] },
    status: row.status,
    gateway_customer_id: row.customer_id,
    proration_result: row.proration_result,
    created_at: row.created_at,
    updated_at: row.updated_at,
    linked_account_id: row.linked_account_id,
    start_date: row.start_at,
    pending_proration_amount: row.pending_proration,
    canceled_at: row.canceled_at,
  };
}
