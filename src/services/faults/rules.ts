// Fault rules of a sandbox: add, list, remove. They act for the group the input names
// (the admin token, the group's own manage_transactions key, or an operator's
// `payctl fault` command); the rule's shape is the domain's one schema.
import { z } from 'zod';
import { forGroup, type Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { addApiFaultRuleInput, newSeed, type ApiFaultRule } from '../../domain/faults.js';
import { invalidRequest, notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';

const groupId = z.object({ group_id: z.string() });

/** At most this many rules per group: every call of the group is tried against them. */
export const MAX_RULES_PER_GROUP = 50;

export const addFaultRule = useCase({
  input: addApiFaultRuleInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<ApiFaultRule> {
    const { group_id, ...fields } = input;
    const g = await forGroup(p, group_id);
    if (g.groupId !== group_id) throw notFound('group');
    const rule: ApiFaultRule = { id: newId(), group_id, ...fields, seed: fields.seed ?? newSeed(), calls: 0, fired: 0, created_at: g.clock.nowIso() };
    await ctx.store.write(async (tx) => {
      const existing = await tx.repos.faultRules.api.list(tx, { group_id });
      if (existing.length >= MAX_RULES_PER_GROUP) {
        throw invalidRequest(`a group holds at most ${MAX_RULES_PER_GROUP} fault rules; remove one first`);
      }
      await tx.repos.faultRules.api.insert(tx, rule);
    });
    return rule;
  },
});

export const listFaultRules = useCase({
  input: groupId,
  async run(p: Platform, ctx: RequestContext, input): Promise<{ data: ApiFaultRule[] }> {
    if (!(await ctx.store.repos.groups.exists(ctx.store, input.group_id))) throw notFound('group');
    return { data: await ctx.store.repos.faultRules.api.list(ctx.store, { group_id: input.group_id }) };
  },
});

export const removeFaultRule = useCase({
  input: groupId.extend({ fault_id: z.string() }),
  async run(p: Platform, ctx: RequestContext, input): Promise<{ id: string; deleted: true }> {
    // Refused inside the write, so it rolls back: on PostgreSQL the change counters' statement triggers fire even when no row went.
    await ctx.store.write(async (tx) => {
      if ((await tx.repos.faultRules.api.remove(tx, { group_id: input.group_id }, input.fault_id)).changes === 0) throw notFound('fault rule');
    });
    return { id: input.fault_id, deleted: true as const };
  },
});
