// Merchant groups, their processors and linked accounts (operator set-up, CLI only).
import type { Platform } from '../platform.js';
import { Database, type Executor } from '../../store/db.js';
import { configCache } from '../../store/config-cache.js';
import { groupRepo, linkedAccountRepo, processorRepo } from '../../store/repositories/groups.js';
import {
  toGroup, toLinkedAccount, toProcessor,
  type Group, type GroupEntity, type LinkedAccount, type LinkedAccountEntity, type Processor, type ProcessorEntity,
} from '../../domain/groups.js';
import { newId } from '../../lib/ids.js';
import { notFound, validationError } from '../../errors.js';
import { PRICING, PROCESSOR_TYPES, type Pricing, type ProcessorType } from '../../domain/permissions.js';

export async function createGroup(p: Platform, input: { name: string; pricing?: Pricing }): Promise<Group> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw validationError([{ path: 'name', message: 'must be 1 to 100 characters' }]);
  const pricing = input.pricing ?? 'flat';
  if (!PRICING.includes(pricing)) throw validationError([{ path: 'pricing', message: `must be one of ${PRICING.join(', ')}` }]);
  const now = p.clock.nowIso();
  const row: GroupEntity = { id: newId(), name, pricing, status: 'active', created_at: now, updated_at: now };
  await p.db.write((tx) => groupRepo.insert(tx, row));
  return toGroup(row);
}

export const listGroups = async (p: Platform): Promise<Group[]> => (await groupRepo.list(p.db)).map(toGroup);

/**
 * The cache of the reader, when a request has checked it (see config-cache.ts): inside a
 * write, or in a process that never checks (the CLI), rows are read.
 */
function cacheOf(ex: Executor) {
  if (!(ex instanceof Database)) return undefined;
  const cache = configCache(ex);
  return cache.checked ? cache : undefined;
}

/** The group, or 404; `named` puts the id in the message ("group ID not found", as a command's --group is reported). */
export async function requireGroup(ex: Executor, groupId: string, opts: { named?: boolean } = {}): Promise<GroupEntity> {
  const cache = cacheOf(ex);
  const version = cache?.currentVersion;
  const cached = cache?.group(groupId);
  if (cached) return cached;
  const g = await groupRepo.find(ex, groupId);
  if (!g) throw notFound(opts.named ? `group ${groupId}` : 'group');
  if (cache && version !== undefined) cache.putGroup(version, g);
  return g;
}


export async function createProcessor(
  p: Platform,
  input: { groupId: string; type: ProcessorType; name?: string },
): Promise<Processor> {
  await requireGroup(p.db, input.groupId);
  if (!PROCESSOR_TYPES.includes(input.type)) {
    throw validationError([{ path: 'type', message: `must be one of ${PROCESSOR_TYPES.join(', ')}` }]);
  }
  const row: ProcessorEntity = {
    id: newId(),
    group_id: input.groupId,
    name: input.name ?? 'Simulated Processor',
    type: input.type,
    created_at: p.clock.nowIso(),
  };
  await p.db.write((tx) => processorRepo.insert(tx, row));
  return toProcessor(row);
}

export const listProcessors = async (p: Platform, groupId: string): Promise<Processor[]> => (await processorRepo.listByGroup(p.db, groupId)).map(toProcessor);

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
  const row = await processorRepo.find(ex, groupId, processorId);
  if (row && cache && version !== undefined) cache.putProcessor(version, row);
  return row;
}

export async function createLinkedAccount(
  p: Platform,
  input: { groupId: string; processorId: string; name?: string },
): Promise<LinkedAccount> {
  await requireGroup(p.db, input.groupId);
  await requireProcessor(p.db, input.groupId, input.processorId, 'processor');
  const row: LinkedAccountEntity = {
    id: newId(),
    group_id: input.groupId,
    processor_id: input.processorId,
    name: input.name ?? 'Main account',
    created_at: p.clock.nowIso(),
  };
  await p.db.write((tx) => linkedAccountRepo.insert(tx, row));
  return toLinkedAccount(row);
}

export const listLinkedAccounts = async (p: Platform, groupId: string): Promise<LinkedAccount[]> =>
  (await linkedAccountRepo.listByGroup(p.db, groupId)).map(toLinkedAccount);

/** The `{linked_account_id}` of a path: 404 when it is not an account of the group. */
export async function requireLinkedAccount(ex: Executor, groupId: string, id: string): Promise<LinkedAccountEntity> {
  const row = await linkedAccountRepo.find(ex, groupId, id);
  if (!row) throw notFound('linked account');
  return row;
}
