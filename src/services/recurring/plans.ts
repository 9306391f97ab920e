// Plans (spec 4 Create Plan, 5 Update plan; get and list are extensions).
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { event, updatedEvent } from '../events/events.js';
import { replacement, type Edit } from '../edit.js';
import type { GroupContext } from '../context.js';
import type { Executor } from '../../store/db.js';
import { planRepo, type PlanRow } from '../../store/repositories/plans.js';
import { subscriptionRepo } from '../../store/repositories/subscriptions.js';
import {
  createPlanSchema,
  DEFAULT_MAX_RETRY_COUNT,
  DEFAULT_PRORATION_BEHAVIOR,
  planListQuerySchema,
  planUpdateProrationBehavior,
  updatePlanSchema,
  type BillingCycle,
  type CreatePlanInput,
  type Plan,
  type PlanList,
  type ProrationBehavior,
  type RetryPolicy,
} from '../../domain/recurring.js';
import { notFound, parseOrThrow } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { requireLinkedAccount } from '../groups/groups.js';
import { applyTerms, BILLING_BATCH_SIZE } from './billing.js';

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    duration: row.duration,
    amount: row.amount,
    initial_amount: row.initial_amount,
    trial_amount: row.trial_amount,
    billing_cycle: row.billing_cycle as BillingCycle,
    billing_factor: row.billing_factor,
    linked_account_id: row.linked_account_id,
    description: row.description,
    tax: row.tax,
    shipping_amount: row.shipping_amount,
    custom_fields: row.custom_fields ? (JSON.parse(row.custom_fields) as Plan['custom_fields']) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    trial_period_days: row.trial_period_days,
    max_retry_count: row.max_retry_count,
    ...(row.retry_policy ? { retry_policy: JSON.parse(row.retry_policy) as { steps: Array<{ delay_days: number }> } } : {}),
    proration_behavior: row.proration_behavior as ProrationBehavior,
  };
}

/** A plan of the path's linked account; 404 otherwise. */
export async function requirePlan(ex: Executor, groupId: string, linkedAccountId: string, id: string): Promise<PlanRow> {
  const row = await planRepo.find(ex, groupId, linkedAccountId, id);
  if (!row) throw notFound('plan');
  return row;
}

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
    custom_fields: input.custom_fields ? JSON.stringify(input.custom_fields) : null,
  };
}

const policyJson = (policy: RetryPolicy | undefined): string | null =>
  policy ? JSON.stringify({ steps: (policy.steps ?? []).map((s) => ({ delay_days: s.delay_days })) }) : null;

export async function createPlan(p: Platform, ctx: GroupContext, linkedAccountId: string, body: unknown): Promise<Plan> {
  const groupId = ctx.group;
  const input = parseOrThrow(createPlanSchema, body);
  const now = ctx.clock.nowIso();
  return unitOfWork(ctx, async ({ tx, emit }) => {
    await requireLinkedAccount(tx, groupId, linkedAccountId);
    const row: PlanRow = {
      id: newId(),
      group_id: groupId,
      linked_account_id: linkedAccountId,
      ...planValues(input),
      retry_policy: policyJson(input.retry_policy),
      created_at: now,
      updated_at: now,
    };
    await planRepo.insert(tx, row);
    const created = toPlan(row);
    emit(event('plan.created', created));
    return created;
  });
}

export async function getPlan(p: Platform, ctx: GroupContext, linkedAccountId: string, id: string): Promise<Plan> {
  const groupId = ctx.group;
  await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
  return toPlan(await requirePlan(ctx.store, groupId, linkedAccountId, id));
}

export async function listPlans(p: Platform, ctx: GroupContext, linkedAccountId: string, query: unknown = {}): Promise<PlanList> {
  const groupId = ctx.group;
  const q = parseOrThrow(planListQuerySchema, query);
  await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
  const [rows, total] = await Promise.all([
    planRepo.list(ctx.store, groupId, linkedAccountId, q.limit, q.offset),
    planRepo.count(ctx.store, groupId, linkedAccountId),
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
 * amount applies from the next charge). Everything happens in one write.
 */
export async function updatePlan(p: Platform, ctx: GroupContext, linkedAccountId: string, id: string, body: unknown | Edit<Plan>): Promise<Plan> {
  const groupId = ctx.group;
  const given = replacement(updatePlanSchema, body);
  return unitOfWork(ctx, async ({ tx, emit }) => {
    await requireLinkedAccount(tx, groupId, linkedAccountId);
    const current = await requirePlan(tx, groupId, linkedAccountId, id);
    const input = await given(() => toPlan(current));
    const values = planValues(input);
    const keptPolicy = current.retry_policy && (JSON.parse(current.retry_policy) as { steps: unknown[] }).steps.length === values.max_retry_count;
    const plan: PlanRow = {
      ...current,
      ...values,
      retry_policy: keptPolicy ? current.retry_policy : null,
      updated_at: ctx.clock.nowIso(),
    };
    await planRepo.update(tx, plan);

    const behavior = planUpdateProrationBehavior(input);
    if (behavior) {
      let after = '';
      for (;;) {
        const rows = await subscriptionRepo.activeOfPlan(tx, plan.id, after, BILLING_BATCH_SIZE);
        if (rows.length === 0) break;
        const methods = await subscriptionRepo.paymentMethods(tx, rows);
        for (const row of rows) {
          await applyTerms(tx, p, row, { ...plan, billing_cycle: plan.billing_cycle as BillingCycle, shipping: plan.shipping_amount }, behavior, methods);
          row.updated_at = plan.updated_at;
          if ((await subscriptionRepo.save(tx, row)) !== 1) throw new Error(`subscription ${row.id} changed during the plan update`);
        }
        after = rows.at(-1)!.id;
      }
    }
    const updated = updatedEvent('plan.updated', toPlan(current), toPlan(plan));
    if (updated) emit(updated);
    return toPlan(plan);
  });
}

/** A plan as an Update plan body (for the CLI, which changes only the flags given). */
export function planToUpdateBody(plan: Plan): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: plan.name,
    amount: plan.amount,
    billing_cycle: plan.billing_cycle,
    billing_factor: plan.billing_factor,
    duration: plan.duration,
    description: plan.description,
    tax: plan.tax,
    shipping_amount: plan.shipping_amount,
    max_retry_count: plan.max_retry_count,
    proration_behavior: plan.proration_behavior,
    update_subscriptions: false,
    prorate: false,
  };
  if (plan.initial_amount !== null) body.initial_amount = plan.initial_amount;
  if (plan.trial_period_days !== null) body.trial_period_days = plan.trial_period_days;
  if (plan.trial_amount !== null) body.trial_amount = plan.trial_amount;
  if (plan.custom_fields) body.custom_fields = plan.custom_fields;
  return body;
}
