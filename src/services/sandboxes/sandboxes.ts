// Sandboxes: a group with everything a test needs (a processor, a linked account, one
// key per permission kind, optionally the demo data) and its own clock; created,
// forked and dropped in one call each. Creating one is a single unit of work (it must
// stay cheap: suites make one per test); dropping and forking are one each, driven by
// the store's list of group-owned tables. These operations act for no group (the admin
// token, or an operator's CLI): `ctx` carries the request, each new or named group's
// time comes from its own clock.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { forGroup, platformClock, withGroupClock, type Platform } from '../platform.js';
import { mintKey } from '../groups/keys.js';
import { seedDemoInGroup } from '../../dev/demo.js';
import type { Progress } from '../clock/scheduler.js';
import { catchUpState, startCatchUp, type CatchUpState } from '../clock/catch-up.js';
import { ENV, type Env } from '../../config/env.js';
import type { SandboxEntity } from '../../store/interfaces/groups.js';
import { PERMISSIONS, type Permission } from '../../domain/permissions.js';
import { createSandboxSchema, forkSandboxSchema, moveGroupClockInput, type MoveClock, type SandboxSummary } from '../../domain/sandboxes.js';
import { invoiceSlug, SLUG_BYTES } from '../../domain/catalog.js';
import { clockMoveTarget, parseInstant } from '../../domain/time.js';
import { notFound, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { Tx } from '../../store/interfaces/db.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import type { RequestContext } from '../context.js';

export interface Sandbox {
  group_id: string;
  name: string;
  processor_id: string;
  linked_account_id: string;
  keys: Record<Permission, string>;
  clock: string;
  created_at: string;
  [demoIds: string]: unknown;
}

/** One key per permission kind, inserted in `tx`. */
async function issueKeys(tx: Tx, groupId: string, now: string): Promise<Record<Permission, string>> {
  const keys = {} as Record<Permission, string>;
  const rows = PERMISSIONS.map((permission) => {
    const { key, row } = mintKey(groupId, [permission], `sandbox ${permission}`, now);
    keys[permission] = key;
    return row;
  });
  await tx.repos.apiKeys.insertMany(tx, rows);
  return keys;
}

export const createSandbox = useCase({ input: createSandboxSchema, run: create });

async function create(p: Platform, ctx: RequestContext, input: z.output<typeof createSandboxSchema>): Promise<Sandbox> {
  const base = platformClock(p);
  const offset = input.clock === undefined ? 0 : parseInstant(input.clock).getTime() - base.now().getTime();
  const groupId = newId();
  const g = withGroupClock(p, groupId, offset);
  const now = g.clock.nowIso();
  const group: SandboxEntity = { id: groupId, name: input.name ?? 'Sandbox', pricing: 'flat', status: 'active', created_at: now, updated_at: now, clock_offset_ms: offset };
  const processor = { id: newId(), group_id: groupId, name: 'Simulated Processor', type: 'transaction_level', created_at: now };
  const account = { id: newId(), group_id: groupId, processor_id: processor.id, name: 'Sandbox linked account', created_at: now };
  const keys = await unitOfWork(ctx, async ({ tx }) => {
    await tx.repos.sandboxes.insert(tx, group);
    await tx.repos.processors.insert(tx, processor);
    await tx.repos.linkedAccounts.insert(tx, account);
    return issueKeys(tx, groupId, now);
  });
  const ids = { group_id: groupId, processor_id: processor.id, linked_account_id: account.id };
  const demo = input.demo ? await seedDemoInGroup(g, ids) : {};
  return { ...ids, name: group.name, keys, clock: g.clock.nowIso(), created_at: now, ...demo };
}

export const listSandboxes = useCase({
  input: z.object({}),
  async run(p: Platform, ctx: RequestContext): Promise<{ data: SandboxSummary[] }> {
    const base = platformClock(p);
    await base.refresh();
    const sandboxes = await ctx.store.repos.sandboxes.list(ctx.store);
    const now = base.now().getTime();
    return {
      data: sandboxes.map((r) => ({
        group_id: r.id,
        name: r.name,
        clock: new Date(now + r.clock_offset_ms).toISOString(),
        offset_ms: r.clock_offset_ms,
        created_at: r.created_at,
      })),
    };
  },
});

const groupId = z.object({ group_id: z.string() });

/** Drop a sandbox and every row of it in one transaction; its keys stop working at once. */
export const deleteSandbox = useCase({
  input: groupId,
  run: (p: Platform, ctx: RequestContext, input): Promise<{ group_id: string; deleted: true; rows: Record<string, number> }> =>
    unitOfWork(ctx, async ({ tx }) => {
      if (!(await tx.repos.sandboxes.find(tx, input.group_id))) throw notFound('sandbox');
      const rows = await tx.repos.groupRows.delete(tx, input.group_id);
      return { group_id: input.group_id, deleted: true as const, rows };
    }),
});

/** Copy a sandbox (every row, new ids, same relationships and clock) into a new sandbox. */
export const forkSandbox = useCase({ input: forkSandboxSchema.extend(groupId.shape), run: fork });

async function fork(
  p: Platform,
  ctx: RequestContext,
  input: z.output<typeof forkSandboxSchema> & { group_id: string },
): Promise<Sandbox & { forked_from: string; id_map: Record<string, string>; rows: Record<string, number> }> {
  const groupId = input.group_id;
  const newGroupId = newId();
  const fresh = { id: newId, secret: () => invoiceSlug(randomBytes(SLUG_BYTES)) };
  return unitOfWork(ctx, async ({ tx }) => {
    const source = await tx.repos.sandboxes.find(tx, groupId);
    if (!source) throw notFound('sandbox');
    const g = withGroupClock(p, newGroupId, source.clock_offset_ms);
    const now = g.clock.nowIso();
    const { copied, idMap } = await tx.repos.groupRows.fork(tx, groupId, newGroupId, fresh);
    const name = input.name ?? `${source.name} (fork)`.slice(0, 100);
    await tx.repos.sandboxes.nameFork(tx, newGroupId, name, now);
    const keys = await issueKeys(tx, newGroupId, now);
    const [processor] = await tx.repos.processors.listByGroup(tx, newGroupId);
    const [account] = await tx.repos.linkedAccounts.listByGroup(tx, newGroupId);
    return {
      group_id: newGroupId,
      name,
      processor_id: processor?.id ?? '',
      linked_account_id: account?.id ?? '',
      keys,
      clock: now,
      created_at: now,
      forked_from: groupId,
      id_map: idMap,
      rows: copied,
    };
  });
}

export interface GroupClockState {
  group_id: string;
  now: string;
  offset_ms: number;
  work?: Record<string, number>;
  catch_up?: CatchUpState;
}

/** A group's time now, and its own offset from the platform clock. */
export const showGroupClock = useCase({
  input: groupId,
  run: (p: Platform, ctx: RequestContext, input) => groupClock(p, input.group_id),
});

async function groupClock(p: Platform, groupId: string, finished = false): Promise<GroupClockState> {
  const g = await forGroup(p, groupId);
  if (g.groupId !== groupId) throw notFound('group');
  await g.clock.refresh();
  return {
    group_id: groupId,
    now: g.clock.nowIso(),
    offset_ms: g.clock.offsetMs() - platformClock(g).offsetMs(),
    catch_up: await catchUpState(p, groupId, finished),
  };
}

/** How long a clock move's request waits for its catch-up before answering with the progress so far (PAYCTL_CLOCK_ANSWER_MS). */
export const DEFAULT_CLOCK_ANSWER_MS = 10_000;

function clockAnswerMs(env: Env): number {
  const v = Number(env[ENV.clockAnswerMs]);
  return env[ENV.clockAnswerMs] !== undefined && Number.isFinite(v) && v >= 0 ? v : DEFAULT_CLOCK_ANSWER_MS;
}

/** Move one group's clock: `moveClock` for the group the input names, answering after at most the clock answer budget. */
export const moveGroupClock = useCase({
  input: moveGroupClockInput,
  run: (p: Platform, ctx: RequestContext, input) => moveClock(p, ctx, input, undefined, { answerWithinMs: clockAnswerMs(p.env) }),
});

/**
 * Move one group's clock ({advance: "30d"} or {set: time}) and run that group's due
 * work, nothing of any other group. Never backwards: a set before the group's time now
 * is a 400 naming `set`. The offset is read and written in one unit of work (with the
 * request's Idempotency-Key, so a retried advance moves the clock once), then the due
 * work runs as the group's catch-up, in chunks (`progress` hears of it: the CLI's
 * progress bar). With `answerWithinMs`, the answer comes when the group has caught up or
 * after that long, whichever is first: then `catch_up.status` is `running` and the
 * catch-up goes on after the answer (the route answers 202).
 */
export async function moveClock(
  p: Platform,
  ctx: RequestContext,
  input: MoveClock & { group_id: string },
  progress?: Progress,
  opts: { answerWithinMs?: number } = {},
): Promise<GroupClockState & { work: Record<string, number> }> {
  const groupId = input.group_id;
  const base = platformClock(p);
  await base.refresh();
  await unitOfWork(ctx, async ({ tx }) => {
    const own = await tx.repos.groupClocks.offset(tx, groupId);
    if (own === undefined) throw notFound('group');
    const current = base.now().getTime() + own;
    // Never backwards, at most 10 years per request, within the supported years (DESIGN.md "Clock moves").
    const move = clockMoveTarget(current, input);
    if (!move.ok) throw validationError([{ path: move.field, message: move.message }]);
    const target = move.ms;
    const next = own + (target - current);
    await tx.repos.groupClocks.put(tx, groupId, next);
    return { group_id: groupId, now: new Date(target).toISOString(), offset_ms: next };
  });
  const run = startCatchUp(p, groupId, progress);
  let timer: NodeJS.Timeout | undefined;
  const budget = opts.answerWithinMs;
  const finished = await (budget === undefined
    ? run.promise.then(() => true)
    : Promise.race([run.promise.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), budget)))]).finally(() =>
        clearTimeout(timer),
      ));
  // catch_up.status is `running` exactly when this move's work is still going (the route's 202).
  return { ...(await groupClock(p, groupId, finished)), work: { ...run.work } };
}
