// Subscriptions (spec 6 Update subscription; create, get, list and cancel are extensions).
import { z } from 'zod';
import { platformClock, type Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { event, updatedEvent } from '../events/events.js';
import { editField } from '../edit.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import type { Executor, Tx } from '../../store/interfaces/db.js';
import type { TokenEntity } from '../../domain/tokens.js';
import {
  backdate,
  billingAnchor,
  createSubscriptionSchema,
  effectiveAmounts,
  periodBounds,
  planTerms,
  subscriptionListQuerySchema,
  updateSubscriptionSchema,
  type ProrationBehavior,
  type Subscription,
  type SubscriptionList,
  type UpdateSubscriptionInput,
} from '../../domain/recurring.js';
import type { PlanEntity, SubscriptionEntity, SubscriptionPayment } from '../../domain/recurring/entities.js';
import { invalidRequest, notFound, parseOrThrow, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { requireLinkedAccount, requireProcessor } from '../groups/groups.js';
import { consumeToken } from '../tokens/tokens.js';
import { applyTerms, billSubscription } from './billing.js';
import { toSubscription } from './mapper.js';
import type { PaymentMethods } from '../../store/interfaces/recurring.js';

// ---------------------------------------------------------------------------
// Response object

async function present(ex: Executor, row: SubscriptionEntity): Promise<Subscription> {
  return toSubscription(row, await ex.repos.subscriptions.paymentMethods(ex, [row]));
}

export const requireSubscription = async (ex: Executor, groupId: string, linkedAccountId: string, id: string): Promise<SubscriptionEntity> =>
  (await ex.repos.subscriptions.find(ex, groupId, linkedAccountId, id)) ?? Promise.reject(notFound('subscription'));

/** The plan a request body names: it must be a plan of the path's linked account (400 otherwise). */
async function bodyPlan(ex: Executor, groupId: string, linkedAccountId: string, planId: string): Promise<PlanEntity> {
  const plan = await ex.repos.plans.find(ex, groupId, linkedAccountId, planId);
  if (!plan) throw validationError([{ path: 'plan_id', message: 'is not a plan of this linked account' }]);
  return plan;
}

/** Tax and shipping are included in the amount, also after the plan's values fill the gaps. */
function checkIncluded(a: { amount: number; tax: number; shipping: number }): void {
  if (a.tax + a.shipping > a.amount) {
    throw validationError([
      {
        path: 'amounts.requested_amount',
        message: `must be at least the tax + shipping included in it (${a.tax + a.shipping}; null amounts take the plan's values)`,
      },
    ]);
  }
}

/** The payment method of a consumed token: its snapshot. */
function tokenPayment(token: TokenEntity): SubscriptionPayment {
  const { used_at: _used, ...snapshot } = token;
  return { payment_method: token.type === 'card' ? 'card' : 'ach', card_id: null, bank_account_id: null, token_snapshot: snapshot };
}

// ---------------------------------------------------------------------------
// Create (extension)

/**
 * Subscribe a customer to a plan. The subscription copies the plan's values (amounts
 * overridable); the trial, if the plan has one, starts at start_date and regular billing
 * at its end. Whatever is already due (start_date ≤ now) is billed in the same write, so a
 * subscription starting now has its first charge (or trial charge) made at once; a
 * backdated start bills its current period once (`backdate`), so this write stays one
 * charge however far back the start lies.
 */
const linkedAccount = { linked_account_id: z.string() };
const subscriptionPath = { ...linkedAccount, subscription_id: z.string() };

export const createSubscription = useCase({
  input: createSubscriptionSchema.safeExtend(linkedAccount),
  run: (p: Platform, ctx: GroupContext, { linked_account_id, ...input }) => create(p, ctx, linked_account_id, input),
});

async function create(p: Platform, ctx: GroupContext, linkedAccountId: string, input: z.output<typeof createSubscriptionSchema>): Promise<Subscription> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const account = await requireLinkedAccount(tx, groupId, linkedAccountId);
    const plan = await bodyPlan(tx, groupId, linkedAccountId, input.plan_id);
    const customer = await tx.repos.customers.find(tx, groupId, input.customer_id);
    if (!customer) throw validationError([{ path: 'customer_id', message: 'is not a customer of this group' }]);
    const processorId = input.processor_id ?? account.processor_id;
    await requireProcessor(tx, groupId, processorId);

    const methods: PaymentMethods = { cards: new Map(), banks: new Map() };
    let payment: SubscriptionPayment;
    if (input.card_id) {
      const card = await tx.repos.customerCards.find(tx, groupId, customer.id, input.card_id);
      if (!card) throw validationError([{ path: 'card_id', message: 'is not a stored card of this customer' }]);
      methods.cards.set(card.id, card);
      payment = { payment_method: 'card', card_id: card.id, bank_account_id: null, token_snapshot: null };
    } else if (input.bank_account_id) {
      const bank = await tx.repos.customerBankAccounts.find(tx, groupId, customer.id, input.bank_account_id);
      if (!bank) throw validationError([{ path: 'bank_account_id', message: 'is not a stored bank account of this customer' }]);
      methods.banks.set(bank.id, bank);
      payment = { payment_method: 'ach', card_id: null, bank_account_id: bank.id, token_snapshot: null };
    } else {
      payment = tokenPayment(await consumeToken(tx, input.payment_details!.token!, platformClock(p).now(), 'payment_details.token'));
    }

    const amounts = effectiveAmounts(plan, input.amounts ?? {});
    checkIncluded(amounts);
    const start = input.start_date ?? nowIso;
    const trialDays = plan.trial_period_days ?? 0;
    const anchor = billingAnchor(start, trialDays);
    const terms = { ...planTerms(plan), amount: amounts.amount, tax: amounts.tax, shipping: amounts.shipping, initial_amount: amounts.initialAmount };
    const planned: SubscriptionEntity = {
      id: newId(),
      group_id: groupId,
      linked_account_id: linkedAccountId,
      plan_id: plan.id,
      customer_id: customer.id,
      processor_id: processorId,
      description: input.description ?? plan.description,
      currency: 'USD',
      amount: terms.amount,
      tax_amount: terms.tax,
      shipping_amount: terms.shipping,
      initial_amount: terms.initial_amount,
      trial_amount: plan.trial_amount,
      trial_period_days: plan.trial_period_days,
      billing_cycle: terms.billing_cycle,
      billing_factor: terms.billing_factor,
      duration: terms.duration,
      max_retry_count: terms.max_retry_count,
      retry_policy: terms.retry_policy,
      start_at: start,
      anchor_at: anchor,
      anchor_count: 0,
      trial_done: false,
      next_bill_date: trialDays > 0 ? start : anchor,
      status: 'active',
      charge_count: 0,
      failure_attempt_count: 0,
      retry_count: 0,
      billing_period_start: start,
      billing_period_end: anchor,
      pending_proration: 0,
      proration_result: 'none',
      ...payment,
      billing_address: input.billing_address ?? customerAddress(customer),
      version: 0,
      created_at: nowIso,
      updated_at: nowIso,
      canceled_at: null,
    };
    if (trialDays === 0) {
      const first = periodBounds(planned, 0);
      planned.billing_period_start = first.start;
      planned.billing_period_end = first.end;
    }
    // A start in the past bills its current period once, below, never each missed cycle.
    const row = backdate(planned, nowIso);
    await tx.repos.subscriptions.insert(tx, row);
    const { subscription } = await billSubscription(tx, p, row, nowIso, methods, emit);
    const created = toSubscription(subscription, methods);
    emit(event('subscription.created', created));
    return created;
  });
}

/** The customer's name, e-mail and billing address as the subscription's billing address. */
function customerAddress(c: { first_name: string; last_name: string; email: string; billing_address: Record<string, string> | null }): Record<string, string> {
  const address = c.billing_address ?? {};
  const out: Record<string, string> = {};
  if (c.first_name) out.first_name = c.first_name;
  if (c.last_name) out.last_name = c.last_name;
  Object.assign(out, address);
  if (c.email && !out.email) out.email = c.email;
  return out;
}

// ---------------------------------------------------------------------------
// Update (spec 6)

/**
 * Update subscription (spec 6): the subscription takes the body's values (null amounts:
 * the plan's). A change of amount is prorated over the period already paid for with the
 * body's proration_behavior, or the plan's when absent (the override is not stored). A new
 * billing cycle starts at the end of the current period. payment_details.token replaces
 * the payment method. Only an active subscription can be updated.
 */
async function update(
  p: Platform,
  ctx: GroupContext,
  linkedAccountId: string,
  id: string,
  given: (current: Subscription) => Promise<UpdateSubscriptionInput>,
): Promise<Subscription> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const now = ctx.clock.now();
    await requireLinkedAccount(tx, groupId, linkedAccountId);
    const current = await requireSubscription(tx, groupId, linkedAccountId, id);
    if (current.status !== 'active') {
      throw invalidRequest(`the subscription is ${current.status}; only an active subscription can be updated`);
    }
    const before = toSubscription(current, await tx.repos.subscriptions.paymentMethods(tx, [current]));
    const input = await given(before);
    const plan = await bodyPlan(tx, groupId, linkedAccountId, input.plan_id);
    await requireProcessor(tx, groupId, input.processor_id);
    const amounts = effectiveAmounts(plan, input.amounts);
    checkIncluded(amounts);
    const payment = input.payment_details?.token
      ? tokenPayment(await consumeToken(tx, input.payment_details.token, platformClock(p).now(), 'payment_details.token'))
      : {};
    const changed: SubscriptionEntity = {
      ...current,
      ...payment,
      plan_id: plan.id,
      processor_id: input.processor_id,
      currency: input.currency,
      billing_address: input.billing_address,
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    const methods = await tx.repos.subscriptions.paymentMethods(tx, [changed]);
    const behavior: ProrationBehavior = input.proration_behavior ?? plan.proration_behavior;
    const next = await applyTerms(
      tx,
      p,
      changed,
      {
        billing_cycle: input.billing_cycle,
        billing_factor: input.billing_factor ?? 1,
        amount: amounts.amount,
        tax: amounts.tax,
        shipping: amounts.shipping,
        initial_amount: amounts.initialAmount,
        duration: input.duration,
        max_retry_count: input.max_retry_count,
        retry_policy: plan.retry_policy,
        amount_field: 'amounts.requested_amount',
      },
      behavior,
      methods,
      emit,
    );
    const after = await save(tx, next, now.toISOString(), methods);
    const updated = updatedEvent('subscription.updated', before, after);
    if (updated) emit(updated);
    return after;
  });
}

export const updateSubscription = useCase({
  input: updateSubscriptionSchema.safeExtend(subscriptionPath),
  run: (p: Platform, ctx: GroupContext, { linked_account_id, subscription_id, ...fields }) =>
    update(p, ctx, linked_account_id, subscription_id, async () => fields),
});

/** The CLI's update: `edit` maps the current subscription to the full Update subscription body (checked as the API's). */
export const editSubscription = useCase({
  input: z.object({ ...subscriptionPath, edit: editField<Subscription>() }),
  run: (p: Platform, ctx: GroupContext, { linked_account_id, subscription_id, edit }) =>
    update(p, ctx, linked_account_id, subscription_id, async (current) => parseOrThrow(updateSubscriptionSchema, await edit(current))),
});

async function save(tx: Tx, changed: SubscriptionEntity, now: string, methods?: PaymentMethods): Promise<Subscription> {
  const row = { ...changed, updated_at: now };
  if ((await tx.repos.subscriptions.save(tx, row)) !== 1) throw invalidRequest('the subscription changed at the same time; retry the request');
  row.version += 1;
  return methods ? toSubscription(row, methods) : present(tx, row);
}

// ---------------------------------------------------------------------------
// Cancel, get, list (extensions)

/** Cancel: nothing is billed any more (status canceled). A completed or canceled subscription cannot be canceled. */
export const cancelSubscription = useCase({
  input: z.object(subscriptionPath),
  run: (p: Platform, ctx: GroupContext, input) => cancel(ctx, input.linked_account_id, input.subscription_id),
});

async function cancel(ctx: GroupContext, linkedAccountId: string, id: string): Promise<Subscription> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx, emit }) => {
    await requireLinkedAccount(tx, groupId, linkedAccountId);
    const row = await requireSubscription(tx, groupId, linkedAccountId, id);
    if (row.status === 'canceled' || row.status === 'completed') {
      throw invalidRequest(`the subscription is already ${row.status}`);
    }
    const now = ctx.clock.nowIso();
    const canceled = await save(tx, { ...row, status: 'canceled', next_bill_date: null, canceled_at: now }, now);
    emit(event('subscription.canceled', canceled));
    return canceled;
  });
}

export const getSubscription = useCase({
  input: z.object(subscriptionPath),
  async run(p: Platform, ctx: GroupContext, input): Promise<Subscription> {
    await requireLinkedAccount(ctx.store, ctx.group, input.linked_account_id);
    return present(ctx.store, await requireSubscription(ctx.store, ctx.group, input.linked_account_id, input.subscription_id));
  },
});

export const listSubscriptions = useCase({
  input: subscriptionListQuerySchema.safeExtend(linkedAccount),
  run: (p: Platform, ctx: GroupContext, q) => subscriptionPage(ctx, q.linked_account_id, q),
});

async function subscriptionPage(ctx: GroupContext, linkedAccountId: string, q: z.output<typeof subscriptionListQuerySchema>): Promise<SubscriptionList> {
  const groupId = ctx.group;
  await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
  const filter = { groupId, linkedAccountId, status: q.status, planId: q.plan_id, customerId: q.customer_id };
  const [rows, total] = await Promise.all([ctx.store.repos.subscriptions.list(ctx.store, filter, q.limit, q.offset), ctx.store.repos.subscriptions.count(ctx.store, filter)]);
  const methods = await ctx.store.repos.subscriptions.paymentMethods(ctx.store, rows);
  return { data: { items: rows.map((r) => toSubscription(r, methods)), total_count: total } };
}

