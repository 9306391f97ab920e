// Plans and subscriptions (spec 4, 5, 6; create/get/list/cancel are extensions). The
// linked account of the path must be one of the group's (404 otherwise).
import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { createPlan, getPlan, listPlans, updatePlan } from '../../services/recurring/plans.js';
import {
  cancelSubscription,
  createSubscription,
  getSubscription,
  listSubscriptions,
  updateSubscription,
} from '../../services/recurring/subscriptions.js';
import {
  createPlanSchema,
  createSubscriptionSchema,
  planListQuerySchema,
  planListSchema,
  planSchema,
  subscriptionListQuerySchema,
  subscriptionListSchema,
  subscriptionSchema,
  updatePlanSchema,
  updateSubscriptionSchema,
} from '../../domain/recurring.js';
import { executeRaw, withParams } from '../../services/use-case.js';

const base = '/api/v1/groups/:group_id/processing/:linked_account_id/recurring';
const auth = keyAuth('manage_transactions');
const TAG = 'Recurring';

export const recurringRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: `${base}/plans`,
    summary: 'Create Plan',
    description: 'Retry logic applies to subscriptions paid by card, not ACH.',
    tag: TAG,
    auth,
    body: createPlanSchema,
    response: planSchema,
    handler: (c) => executeRaw(createPlan, c.platform, c.groupCtx, withParams(c.body, { linked_account_id: c.params.linked_account_id })),
  }),
  route({
    method: 'GET',
    path: `${base}/plans`,
    summary: 'List plans of a linked account (newest first)',
    tag: TAG,
    extension: true,
    auth,
    query: planListQuerySchema,
    response: planListSchema,
    handler: (c) => executeRaw(listPlans, c.platform, c.groupCtx, withParams(c.query, { linked_account_id: c.params.linked_account_id })),
  }),
  route({
    method: 'GET',
    path: `${base}/plans/:plan_id`,
    summary: 'Get a plan',
    tag: TAG,
    extension: true,
    auth,
    response: planSchema,
    handler: (c) => executeRaw(getPlan, c.platform, c.groupCtx, { linked_account_id: c.params.linked_account_id, plan_id: c.params.plan_id }),
  }),
  route({
    method: 'PUT',
    path: `${base}/plans/:plan_id`,
    summary: 'Update plan',
    description:
      'update_subscriptions: true gives every active subscription of the plan the new values; with prorate: true the prorated difference for the current partial cycle is charged at once.',
    tag: TAG,
    auth,
    body: updatePlanSchema,
    response: planSchema,
    handler: (c) =>
      executeRaw(updatePlan, c.platform, c.groupCtx, withParams(c.body, { linked_account_id: c.params.linked_account_id, plan_id: c.params.plan_id })),
  }),
  route({
    method: 'POST',
    path: `${base}/subscription`,
    summary: 'Create a subscription (a customer on a plan, paid by a stored card, bank account or token)',
    description: 'Whatever is due at creation (the trial charge or the first cycle when start_date is now or earlier) is charged at once.',
    tag: TAG,
    extension: true,
    auth,
    body: createSubscriptionSchema,
    response: subscriptionSchema,
    handler: (c) => executeRaw(createSubscription, c.platform, c.groupCtx, withParams(c.body, { linked_account_id: c.params.linked_account_id })),
  }),
  route({
    method: 'GET',
    path: `${base}/subscription`,
    summary: 'List subscriptions of a linked account (newest first; filter by status, plan_id, customer_id)',
    tag: TAG,
    extension: true,
    auth,
    query: subscriptionListQuerySchema,
    response: subscriptionListSchema,
    handler: (c) => executeRaw(listSubscriptions, c.platform, c.groupCtx, withParams(c.query, { linked_account_id: c.params.linked_account_id })),
  }),
  route({
    method: 'GET',
    path: `${base}/subscription/:subscription_id`,
    summary: 'Get a subscription',
    tag: TAG,
    extension: true,
    auth,
    response: subscriptionSchema,
    handler: (c) =>
      executeRaw(getSubscription, c.platform, c.groupCtx, { linked_account_id: c.params.linked_account_id, subscription_id: c.params.subscription_id }),
  }),
  route({
    method: 'PUT',
    path: `${base}/subscription/:subscription_id`,
    summary: 'Update subscription',
    description: 'proration_behavior overrides the plan\'s for this update only; payment_details.token replaces the payment method.',
    tag: TAG,
    auth,
    body: updateSubscriptionSchema,
    response: subscriptionSchema,
    handler: (c) =>
      executeRaw(
        updateSubscription,
        c.platform,
        c.groupCtx,
        withParams(c.body, { linked_account_id: c.params.linked_account_id, subscription_id: c.params.subscription_id }),
      ),
  }),
  route({
    method: 'POST',
    path: `${base}/subscription/:subscription_id/cancel`,
    summary: 'Cancel a subscription (status canceled: nothing is billed any more)',
    tag: TAG,
    extension: true,
    auth,
    response: subscriptionSchema,
    handler: (c) =>
      executeRaw(cancelSubscription, c.platform, c.groupCtx, { linked_account_id: c.params.linked_account_id, subscription_id: c.params.subscription_id }),
  }),
];
