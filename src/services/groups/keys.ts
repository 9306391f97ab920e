// API keys: random (192 bits), shown once, stored as a SHA-256 hash (a random key
// needs no slow hash), bound to one group, revocable. Like groups.ts, kept light
// (the key commands load little else): its writes go straight to the store's write queue.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext, RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { createApiKeySchema, toApiKey, type ApiKey, type ApiKeyEntity } from '../../domain/groups.js';
import { newId, randomBase62 } from '../../lib/ids.js';
import { sha256 } from '../../lib/hash.js';
import { authenticationError, notFound, sandboxForking, sandboxImporting } from '../../errors.js';
import type { Permission } from '../../domain/permissions.js';
import { clockOfRow, type GroupClockSetting } from '../../domain/clock-modes.js';
import { requireGroup } from './groups.js';
import { configCache } from '../../store/config-cache.js';
import { droppedKeyMessage } from '../sandboxes/dropped-keys.js';


const KEY_PREFIX = 'sk_test_';


/** A key of the context's group (its only appearance in full is this answer). */
export const createKey = useCase({
  input: createApiKeySchema,
  async run(p: Platform, ctx: GroupContext, input): Promise<ApiKey & { key: string }> {
    await requireGroup(ctx.store, ctx.group);
    const { key, row } = mintKey(ctx.group, input.permissions, input.name ?? '', ctx.clock.nowIso());
    await ctx.store.write((tx) => tx.repos.apiKeys.insert(tx, row));
    return { key, ...toApiKey(row) };
  },
});

/** A new random key and the row that stores it (only its hash); the caller inserts the row. */
export function mintKey(groupId: string, permissions: Permission[], name: string, now: string): { key: string; row: ApiKeyEntity } {
  const key = KEY_PREFIX + randomBase62(32);
  return {
    key,
    row: {
      id: newId(),
      group_id: groupId,
      key_hash: sha256(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      permissions,
      name,
      created_at: now,
      revoked_at: null,
    },
  };
}

/** The keys of the context's group; of every group when it acts for none. */
export const listKeys = useCase({
  input: z.object({}),
  run: async (p: Platform, ctx: RequestContext): Promise<ApiKey[]> => (await ctx.store.repos.apiKeys.list(ctx.store, ctx.group)).map(toApiKey),
});

/** Revoke a key (of any group: the operator's command); revoking it again keeps the first time. */
export const revokeKey = useCase({
  input: z.object({ key_id: z.string() }),
  run: (p: Platform, ctx: RequestContext, input): Promise<ApiKey> =>
    ctx.store.write(async (tx) => {
      const existing = await tx.repos.apiKeys.find(tx, input.key_id);
      if (!existing) throw notFound('API key');
      const at = ctx.clock.nowIso();
      const { changes } = await tx.repos.apiKeys.revoke(tx, input.key_id, at);
      return toApiKey(changes > 0 ? { ...existing, revoked_at: at } : existing);
    }),
});

/**
 * The key in an `Authorization` header (whole value; a `Bearer ` prefix is tolerated), with
 * its group's clock offset. `checked`: the configuration version the caller read already
 * (the request pipeline's one read), else it is read here.
 */
export async function authenticateKey(p: Platform, header: string | undefined, checked?: Promise<number>): Promise<ApiKey & { groupClock: GroupClockSetting }> {
  if (!header) throw authenticationError('missing Authorization header: send your API key as its value');
  const key = header.replace(/^Bearer\s+/i, '').trim();
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) throw authenticationError('malformed API key');
  const hash = sha256(key);
  // One read of the change counter instead of the key row (and, later in the request, the group and processor rows).
  const cache = configCache(p.db);
  const version = await (checked ?? cache.check(p.db));
  let row = cache.key(hash);
  if (!row) {
    row = await p.db.repos.apiKeys.findForAuth(p.db, hash);
    // Unknown: a key of a sandbox dropped lately is told so (services/sandboxes/dropped-keys.ts).
    if (!row) throw authenticationError((await droppedKeyMessage(p.db, hash)) ?? 'unknown API key');
    cache.putKey(version, row);
  }
  if (row.revoked_at) throw authenticationError('this API key was revoked');
  // A fork's or an import's keys are issued when it starts, and work once its rows are all written.
  if (row.group_status === 'forking') throw sandboxForking(row.group_id);
  if (row.group_status === 'importing') throw sandboxImporting(row.group_id);
  return { ...toApiKey(row), groupClock: clockOfRow(row) };
}
