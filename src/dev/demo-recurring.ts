// Demo data for recurring billing: three plans (`plan_ids`) and two active subscriptions
// of the demo customer on the stored Visa card (`subscription_ids`). Neither charges at
// seed time nor within the next 28 days (one is in a 30-day free trial, one starts a month
// from now), so the demo's transactions stay as the other steps made them and short clock
// moves in tests bill nothing; `payctl clock advance 31d` bills both.
import type { DemoStep } from './demo-step.js';
import { fixedToken } from '../services/tokens/tokens.js';
import { storeCard } from '../services/customers/customers.js';
import { createPlan } from '../services/recurring/plans.js';
import { createSubscription } from '../services/recurring/subscriptions.js';
import { addCycles } from '../domain/recurring.js';
import { contextFor } from '../services/context.js';
import { executeRaw, withParams } from '../services/use-case.js';

export const recurringDemoStep: DemoStep = {
  name: 'recurring',
  async run(p, state) {
    const groupId = state.group_id;
    const accountId = state.linked_account_id;
    const now = p.clock.now();
    let cardId = typeof state.card_id === 'string' ? state.card_id : undefined;
    if (!cardId) {
      const card = await p.db.write((tx) =>
        storeCard(tx, {
          groupId,
          customerId: state.customer_id,
          linkedAccountId: accountId,
          token: fixedToken('tok_visa', now)!,
          billing: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' },
          now: now.toISOString(),
        }),
      );
      cardId = card.id;
    }

    const starter = await executeRaw(createPlan, p, contextFor(p, groupId), withParams({
      name: 'Starter',
      description: 'Starter plan, billed monthly after a 30-day free trial',
      amount: 1999,
      tax: 150,
      billing_cycle: 'monthly',
      duration: 0,
      trial_period_days: 30,
      proration_behavior: 'create_prorations',
    }, { linked_account_id: accountId }));
    const pro = await executeRaw(createPlan, p, contextFor(p, groupId), withParams({
      name: 'Pro (annual)',
      description: 'Pro plan, billed yearly',
      amount: 19900,
      billing_cycle: 'annual',
      duration: 0,
      max_retry_count: 3,
      retry_policy: { steps: [{ delay_days: 1 }, { delay_days: 3 }, { delay_days: 7 }] },
      proration_behavior: 'immediate_action',
    }, { linked_account_id: accountId }));
    const box = await executeRaw(createPlan, p, contextFor(p, groupId), withParams({
      name: 'Weekly box',
      description: 'Twelve weekly deliveries, shipping included',
      amount: 1250,
      shipping_amount: 500,
      initial_amount: 2500,
      billing_cycle: 'weekly',
      duration: 12,
    }, { linked_account_id: accountId }));

    const nextMonth = addCycles(now, 'monthly', 1, 1);
    const onStarter = await executeRaw(createSubscription, p, contextFor(p, groupId), withParams({
      plan_id: starter.id,
      customer_id: state.customer_id,
      card_id: cardId,
    }, { linked_account_id: accountId }));
    const onPro = await executeRaw(createSubscription, p, contextFor(p, groupId), withParams({
      plan_id: pro.id,
      customer_id: state.customer_id,
      card_id: cardId,
      start_date: nextMonth,
    }, { linked_account_id: accountId }));
    return {
      ...(state.card_id ? {} : { card_id: cardId }),
      plan_ids: [starter.id, pro.id, box.id],
      subscription_ids: [onStarter.id, onPro.id],
    };
  },
};
