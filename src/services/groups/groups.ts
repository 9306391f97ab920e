// Merchant groups, their processors and linked accounts (operator set-up, CLI only).
// Processors and linked accounts belong to the context's group. Every command loads this
// module for its group check (requireGroup), so it stays light: its writes go straight to
// the store's write queue (`ctx.store.write`) — operator set-up emits no events and takes
// no Idempotency-Key — instead of through the unit of work, which loads the event log.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext, RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { isStore, type Executor } from '../../store/interfaces/db.js';
import { configCache } from '../../store/config-cache.js';
import {
  createGroupSchema, createLinkedAccountSchema, createProcessorSchema, toGroup, toLinkedAccount, toProcessor,
  type Group, type GroupEntity, type LinkedAccount, type LinkedAccountEntity, type Processor, type ProcessorEntity,
} from '../../domain/groups.js';
import { newId } from '../../lib/ids.js';
import { notFound, validationError } from '../../errors.js';

export const createGroup = useCase({
  input: createGroupSchema,
  async run(p: Platform, ctx: RequestContext, input): Promise<Group> {
    const now = ctx.clock.nowIso();
    const group: GroupEntity = { id: newId(), name: input.name, pricing: input.pricing, status: 'active', created_at: now, updated_at: now };
    await ctx.store.write((tx) => tx.repos.groups.insert(tx, group));
    return toGroup(group);
  },
});

export const listGroups = useCase({
  input: z.object({}),
  run: async (p: Platform, ctx: RequestContext): Promise<Group[]> => (await ctx.store.repos.groups.list(ctx.store)).map(toGroup),
});

/**
 * The cache of the reader, when a request has checked it (see config-cache.ts): inside a
 * write, or in a process that never checks (the CLI), rows are read.
 */
function cacheOf(ex: Executor) {
  if (!isStore(ex)) return undefined;
  const cache = configCache(ex);
  return cache.checked ? cache : undefined;
}

/** The group, or 404; `named` puts the id in the message ("group ID not found", as a command's --group is reported). */
export async function requireGroup(ex: Executor, groupId: string, opts: { named?: boolean } = {}): Promise<GroupEntity> {
  const cache = cacheOf(ex);
  const version = cache?.currentVersion;
  const cached = cache?.group(groupId);
  if (cached) return cached;
  const g = await ex.repos.groups.find(ex, groupId);
  if (!g) throw notFound(opts.named ? `group ${groupId}` : 'group');
  if (cache && version !== undefined) cache.putGroup(version, g);
  return g;
}

/** One group, or 404 (`named`: the message names the id, as a command's --group is reported). */
export const getGroup = useCase({
  input: z.object({ group_id: z.string(), named: z.boolean().optional() }),
  run: async (p: Platform, ctx: RequestContext, input): Promise<Group> => toGroup(await requireGroup(ctx.store, input.group_id, { named: input.named })),
});


/**
 * A new object of the context's group (which must exist): a fresh id, created and
 * updated now, with `fields` between (in the order the API answers them).
 */
export async function newInGroup<F extends object>(ctx: GroupContext, fields: F): Promise<{ id: string; group_id: string } & F & { created_at: string; updated_at: string }> {
  await requireGroup(ctx.store, ctx.group);
  const now = ctx.clock.nowIso();
  return { id: newId(), group_id: ctx.group, ...fields, created_at: now, updated_at: now };
}

export const createProcessor = useCase({
  input: createProcessorSchema,
  async run(p: Platform, ctx: GroupContext, input): Promise<Processor> {
    await requireGroup(ctx.store, ctx.group);
    const processor: ProcessorEntity = {
      id: newId(),
      group_id: ctx.group,
      name: input.name ?? 'Simulated Processor',
      type: input.type,
      created_at: ctx.clock.nowIso(),
    };
    await ctx.store.write((tx) => tx.repos.processors.insert(tx, processor));
    return toProcessor(processor);
  },
});

export const listProcessors = useCase({
  input: z.object({}),
  run: async (p: Platform, ctx: GroupContext): Promise<Processor[]> => (await ctx.store.repos.processors.listByGroup(ctx.store, ctx.group)).map(toProcessor),
});

/** The processor named in a request body, which must belong to the group. */
export async function requireProcessor(ex: Executor, groupId: string, processorId: string, path = 'processor_id'): Promise<ProcessorEntity> {
  const row = await findProcessor(ex, groupId, processorId);
  if (!row) throw validationError([{ path, message: 'is not a processor of this group' }]);
  return row;
}

/** A processor of the group or undefined (from the request's checked cache when there is one). */
export async function findProcessor(ex: Executor, groupId: string, processorId: string): Promise<ProcessorEntity | undefined> {
  const cache = cacheOf(ex);
  const version = cache?.currentVersion;
  const cached = cache?.processor(groupId, processorId);
  if (cached) return cached;
  const row = await ex.repos.processors.find(ex, groupId, processorId);
  if (row && cache && version !== undefined) cache.putProcessor(version, row);
  return row;
}

export const createLinkedAccount = useCase({
  input: createLinkedAccountSchema,
  async run(p: Platform, ctx: GroupContext, input): Promise<LinkedAccount> {
    await requireGroup(ctx.store, ctx.group);
    await requireProcessor(ctx.store, ctx.group, input.processor_id, 'processor');
    const account: LinkedAccountEntity = {
      id: newId(),
      group_id: ctx.group,
      processor_id: input.processor_id,
      name: input.name ?? 'Main account',
      created_at: ctx.clock.nowIso(),
    };
    await ctx.store.write((tx) => tx.repos.linkedAccounts.insert(tx, account));
    return toLinkedAccount(account);
  },
});

export const listLinkedAccounts = useCase({
  input: z.object({}),
  run: async (p: Platform, ctx: GroupContext): Promise<LinkedAccount[]> =>
    (await ctx.store.repos.linkedAccounts.listByGroup(ctx.store, ctx.group)).map(toLinkedAccount),
});

/** The `{linked_account_id}` of a path: 404 when it is not an account of the group. */
export async function requireLinkedAccount(ex: Executor, groupId: string, id: string): Promise<LinkedAccountEntity> {
  const row = await ex.repos.linkedAccounts.find(ex, groupId, id);
  if (!row) throw notFound('linked account');
  return row;
}
