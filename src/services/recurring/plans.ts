// Plans (spec 4 Create Plan, 5 Update plan; get and list are extensions).
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { event, updatedEvent } from '../events/events.js';
import { editField } from '../edit.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import type { Executor } from '../../store/interfaces/db.js';
import {
  createPlanSchema,
  DEFAULT_MAX_RETRY_COUNT,
  DEFAULT_PRORATION_BEHAVIOR,
  planListQuerySchema,
  planTerms,
  planUpdateProrationBehavior,
  updatePlanSchema,
  type CreatePlanInput,
  type Plan,
  type PlanList,
  type RetryPolicy,
  type UpdatePlanInput,
} from '../../domain/recurring.js';
import type { PlanEntity, RetryPolicySteps } from '../../domain/recurring/entities.js';
import { notFound, parseOrThrow } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { requireLinkedAccount } from '../groups/groups.js';
import { BILLING_BATCH_SIZE } from './billing.js';
import { completePlanUpdate } from './plan-updates.js';
import { changeAmount, withTerms } from '../../domain/recurring/subscription-calendar.js';
import type { ProrationBehavior } from '../../domain/recurring/constants.js';
import { yieldToOthers } from '../clock/chunks.js';

export function toPlan(row: PlanEntity): Plan {
  return {
    id: row.id,
    name: row.name,
    duration: row.duration,
    amount: row.amount,
    initial_amount: row.initial_amount,
    trial_amount: row.trial_amount,
    billing_cycle: row.billing_cycle,
    billing_factor: row.billing_factor,
    linked_account_id: row.linked_account_id,
    description: row.description,
    tax: row.tax,
    shipping_amount: row.shipping_amount,
    custom_fields: row.custom_fields,
    created_at: row.created_at,
    updated_at: row.updated_at,
    trial_period_days: row.trial_period_days,
    max_retry_count: row.max_retry_count,
    ...(row.retry_policy ? { retry_policy: row.retry_policy } : {}),
    proration_behavior: row.proration_behavior,
  };
}

/** A plan of the path's linked account; 404 otherwise. */
export const requirePlan = async (ex: Executor, groupId: string, linkedAccountId: string, id: string): Promise<PlanEntity> =>
  (await ex.repos.plans.find(ex, groupId, linkedAccountId, id)) ?? Promise.reject(notFound('plan'));

/** The fields Create Plan and Update plan share, with the defaults of absent optional fields. */
function planValues(input: Omit<CreatePlanInput, 'retry_policy'>) {
  return {
    name: input.name,
    description: input.description ?? '',
    amount: input.amount,
    initial_amount: input.initial_amount ?? null,
    trial_amount: input.trial_amount ?? null,
    trial_period_days: input.trial_period_days ?? null,
    billing_cycle: input.billing_cycle,
    billing_factor: input.billing_factor ?? 1,
    duration: input.duration,
    tax: input.tax ?? 0,
    shipping_amount: input.shipping_amount ?? 0,
    max_retry_count: input.max_retry_count ?? DEFAULT_MAX_RETRY_COUNT,
    proration_behavior: input.proration_behavior ?? DEFAULT_PRORATION_BEHAVIOR,
    custom_fields: input.custom_fields ?? null,
  };
}

/** The steps of a retry policy as a plan keeps them (only the delays). */
const policySteps = (policy: RetryPolicy | undefined): RetryPolicySteps | null =>
  policy ? { steps: (policy.steps ?? []).map((s) => ({ delay_days: s.delay_days })) } : null;

const linkedAccount = { linked_account_id: z.string() };

export const createPlan = useCase({
  input: createPlanSchema.safeExtend(linkedAccount),
  async run(p: Platform, ctx: GroupContext, { linked_account_id: linkedAccountId, ...input }): Promise<Plan> {
    const now = ctx.clock.nowIso();
    return unitOfWork(ctx, async ({ tx, emit }) => {
      await requireLinkedAccount(tx, ctx.group, linkedAccountId);
      const plan: PlanEntity = {
        id: newId(),
        group_id: ctx.group,
        linked_account_id: linkedAccountId,
        ...planValues(input),
        retry_policy: policySteps(input.retry_policy),
        created_at: now,
        updated_at: now,
      };
      await tx.repos.plans.insert(tx, plan);
      const created = toPlan(plan);
      emit(event('plan.created', created));
      return created;
    });
  },
});

export const getPlan = useCase({
  input: z.object({ ...linkedAccount, plan_id: z.string() }),
  async run(p: Platform, ctx: GroupContext, input): Promise<Plan> {
    await requireLinkedAccount(ctx.store, ctx.group, input.linked_account_id);
    return toPlan(await requirePlan(ctx.store, ctx.group, input.linked_account_id, input.plan_id));
  },
});

export const listPlans = useCase({
  input: planListQuerySchema.safeExtend(linkedAccount),
  run: (p: Platform, ctx: GroupContext, q) => planPage(ctx, q.linked_account_id, q),
});

async function planPage(ctx: GroupContext, linkedAccountId: string, q: { limit: number; offset: number }): Promise<PlanList> {
  const groupId = ctx.group;
  await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
  const [rows, total] = await Promise.all([
    ctx.store.repos.plans.list(ctx.store, groupId, linkedAccountId, q.limit, q.offset),
    ctx.store.repos.plans.count(ctx.store, groupId, linkedAccountId),
  ]);
  return { data: { items: rows.map(toPlan), total_count: total } };
}

/**
 * Update plan (spec 5). Every field is replaced (absent optional fields take their create
 * defaults); retry_policy is not part of the update and is kept while its step count still
 * equals max_retry_count (otherwise the default schedule applies).
 *
 * update_subscriptions: every active subscription of the plan takes the plan's amount, tax,
 * shipping_amount, initial_amount, billing_cycle, billing_factor, duration,
 * max_retry_count and retry policy. prorate: true charges the prorated difference for the
 * rest of the current cycle at once (immediate_action); false prorates nothing (the new
 * amount applies from the next charge). The plan and the job that reaches its
 * subscriptions are one write; the subscriptions are then updated in chunks
 * (plan-updates.ts), and the answer comes after the last. An update that would take a
 * subscription past the money bound is refused first (400, nothing written): every
 * subscription's new terms are worked out on the reader before anything is written.
 */
async function update(
  p: Platform,
  ctx: GroupContext,
  linkedAccountId: string,
  id: string,
  given: (current: Plan) => Promise<UpdatePlanInput>,
): Promise<Plan> {
  const groupId = ctx.group;
  {
    // Checked on the reader first, so the writer is never held for it.
    await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
    const current = await requirePlan(ctx.store, groupId, linkedAccountId, id);
    const input = await given(toPlan(current));
    const behavior = planUpdateProrationBehavior(input);
    if (behavior) await checkSubscriptionTerms(ctx, { ...current, ...planValues(input) }, behavior);
  }
  const result = await unitOfWork(ctx, async ({ tx, emit }) => {
    await requireLinkedAccount(tx, groupId, linkedAccountId);
    const current = await requirePlan(tx, groupId, linkedAccountId, id);
    const input = await given(toPlan(current));
    const values = planValues(input);
    const keptPolicy = current.retry_policy !== null && current.retry_policy.steps.length === values.max_retry_count;
    const plan: PlanEntity = {
      ...current,
      ...values,
      retry_policy: keptPolicy ? current.retry_policy : null,
      updated_at: ctx.clock.nowIso(),
    };
    const behavior = planUpdateProrationBehavior(input);
    if (behavior) {
      await tx.repos.plans.beginUpdate(tx, {
        plan_id: plan.id,
        group_id: groupId,
        linked_account_id: linkedAccountId,
        behavior,
        cursor: '',
        updated_at: plan.updated_at,
        request_id: ctx.request?.id ?? null,
        idempotency_key: ctx.request?.idempotency_key ?? null,
      });
    }
    await tx.repos.plans.update(tx, plan);
    const updated = updatedEvent('plan.updated', toPlan(current), toPlan(plan));
    if (updated) emit(updated);
    return toPlan(plan);
  });
  // The subscriptions (a replay finds no job left: nothing to do).
  await completePlanUpdate(p, id, ctx);
  return result;
}

/**
 * Refuse (400 naming the field, before anything is written) an update whose new terms
 * would take one of the plan's active subscriptions past the money bound: each one's new
 * amount and proration worked out as the chunks will, on the reader, a page at a time.
 */
async function checkSubscriptionTerms(ctx: GroupContext, plan: PlanEntity, behavior: ProrationBehavior): Promise<void> {
  const terms = planTerms(plan);
  const now = ctx.clock.nowIso();
  let after = '';
  for (;;) {
    const rows = await ctx.store.repos.subscriptions.activeOfPlan(ctx.store, plan.id, after, BILLING_BATCH_SIZE);
    for (const row of rows) changeAmount(withTerms(row, terms), terms.amount, behavior, now, terms.amount_field);
    if (rows.length < BILLING_BATCH_SIZE) return;
    after = rows.at(-1)!.id;
    await yieldToOthers();
  }
}

const planPath = { ...linkedAccount, plan_id: z.string() };

export const updatePlan = useCase({
  input: updatePlanSchema.safeExtend(planPath),
  run: (p: Platform, ctx: GroupContext, { linked_account_id, plan_id, ...fields }) => update(p, ctx, linked_account_id, plan_id, async () => fields),
});

/** The CLI's update: `edit` maps the current plan to the full Update plan body (checked as the API's). */
export const editPlan = useCase({
  input: z.object({ ...planPath, edit: editField<Plan>() }),
  run: (p: Platform, ctx: GroupContext, { linked_account_id, plan_id, edit }) =>
    update(p, ctx, linked_account_id, plan_id, async (current) => parseOrThrow(updatePlanSchema, await edit(current))),
});

