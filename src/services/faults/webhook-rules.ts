// Fault rules of a webhook endpoint: add, list, remove, for the endpoint's group (a
// manage_webhooks key, or an operator's `payctl webhook fault` command).
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import { addWebhookFaultRuleInput, newSeed, type WebhookFaultRule } from '../../domain/faults.js';
import { uuid } from '../../domain/strings.js';
import { invalidRequest, notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { Executor } from '../../store/interfaces/db.js';
import { MAX_RULES_PER_GROUP } from './rules.js';

async function requireEndpoint(ex: Executor, groupId: string, endpointId: string): Promise<void> {
  if (!uuid.safeParse(endpointId).success || !(await ex.repos.webhookEndpoints.find(ex, groupId, endpointId))) throw notFound('webhook endpoint');
}

export const addWebhookFaultRule = useCase({
  input: addWebhookFaultRuleInput,
  async run(p: Platform, ctx: GroupContext, input): Promise<WebhookFaultRule> {
    const { group_id, endpoint_id, ...fields } = input;
    const rule: WebhookFaultRule = { id: newId(), group_id, endpoint_id, ...fields, seed: fields.seed ?? newSeed(), calls: 0, fired: 0, created_at: ctx.clock.nowIso() };
    await ctx.store.write(async (tx) => {
      await requireEndpoint(tx, group_id, endpoint_id);
      if ((await tx.repos.faultRules.webhook.list(tx, { group_id, endpoint_id })).length >= MAX_RULES_PER_GROUP) {
        throw invalidRequest(`an endpoint holds at most ${MAX_RULES_PER_GROUP} fault rules; remove one first`);
      }
      await tx.repos.faultRules.webhook.insert(tx, rule);
    });
    return rule;
  },
});

const endpointIds = z.object({ group_id: z.string(), endpoint_id: z.string() });

export const listWebhookFaultRules = useCase({
  input: endpointIds,
  async run(p: Platform, ctx: GroupContext, input): Promise<{ data: WebhookFaultRule[] }> {
    await requireEndpoint(ctx.store, input.group_id, input.endpoint_id);
    return { data: await ctx.store.repos.faultRules.webhook.list(ctx.store, { group_id: input.group_id, endpoint_id: input.endpoint_id }) };
  },
});

export const removeWebhookFaultRule = useCase({
  input: endpointIds.extend({ fault_id: z.string() }),
  async run(p: Platform, ctx: GroupContext, input): Promise<{ id: string; deleted: true }> {
    // Refused inside the write, so it rolls back: on PostgreSQL the change counters' statement triggers fire even when no row went.
    await ctx.store.write(async (tx) => {
      if ((await tx.repos.faultRules.webhook.remove(tx, { group_id: input.group_id, endpoint_id: input.endpoint_id }, input.fault_id)).changes === 0) throw notFound('webhook fault rule');
    });
    return { id: input.fault_id, deleted: true as const };
  },
});
