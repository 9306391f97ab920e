// Sandboxes: a group with everything a test needs (a processor, a linked account, one
// key per permission kind, optionally the demo data) and its own clock; created,
// forked and dropped in one call each. Creating one is a single unit of work (it must
// stay cheap: suites make one per test); dropping and forking are one each, driven by
// the store's list of group-owned tables. These operations act for no group (the admin
// token, or an operator's CLI): `ctx` carries the request, each new or named group's
// time comes from its own clock.
import { z } from 'zod';
import { forGroup, platformClock, withGroupClock, type Platform } from '../platform.js';
import type { Progress } from '../clock/chunks.js';
import { catchUpState, startCatchUp, type CatchUpState } from '../clock/catch-up.js';
import { ENV, envInteger, type Env } from '../../config/env.js';
import type { SandboxEntity } from '../../store/interfaces/groups.js';
import type { Permission } from '../../domain/permissions.js';
import {
  createSandboxSchema,
  forkSandboxSchema,
  moveGroupClockInput,
  type ForkingSandbox,
  type ForkProgressState,
  type MoveClock,
  type SandboxSummary,
} from '../../domain/sandboxes.js';
import { clampedInstant, clockMoveTarget, parseInstant } from '../../domain/time.js';
import { notFound, sandboxForking, sandboxImporting, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { unitOfWork } from '../unit-of-work.js';
import { dropSandbox } from './drop-run.js';
import { useCase } from '../use-case.js';
import { finishFork, forkProgress, runFork, type ForkedGroup } from './fork-run.js';
import { issueKeys } from './keys.js';
import type { ForkProgress } from '../../store/interfaces/platform.js';
import type { RequestContext } from '../context.js';

export interface Sandbox {
  group_id: string;
  name: string;
  status: 'active' | 'forking';
  processor_id: string;
  linked_account_id: string;
  keys: Record<Permission, string>;
  clock: string;
  created_at: string;
  [demoIds: string]: unknown;
}

/** The ids a new sandbox's demo data is made in. */
export interface SandboxIds {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
}

/**
 * Fills a new sandbox with demo data at its clock and returns the demo ids (customer_id …):
 * dev/demo.ts's seedDemoInGroup, handed in by the route or command, so this service does
 * not depend on the demo scripts (which call services themselves).
 */
export type DemoSeeder = (g: Platform, ids: SandboxIds) => Promise<Record<string, unknown>>;

/** Create a sandbox (`demo`: filled by `seedDemo`). */
export const createSandbox = (seedDemo: DemoSeeder) =>
  useCase({ input: createSandboxSchema, run: (p: Platform, ctx: RequestContext, input: z.output<typeof createSandboxSchema>) => create(p, ctx, input, seedDemo) });

async function create(p: Platform, ctx: RequestContext, input: z.output<typeof createSandboxSchema>, seedDemo: DemoSeeder): Promise<Sandbox> {
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
  const ids: SandboxIds = { group_id: groupId, processor_id: processor.id, linked_account_id: account.id };
  const demo = input.demo ? await seedDemo(g, ids) : {};
  // Kept so that a recording of this sandbox refers to the demo's objects as ${demo.*}.
  if (input.demo) await ctx.store.write((tx) => tx.repos.recordings.setDemo(tx, groupId, JSON.stringify(demo)));
  return { ...ids, name: group.name, status: 'active', keys, clock: g.clock.nowIso(), created_at: now, ...demo };
}

export const listSandboxes = useCase({
  input: z.object({}),
  async run(p: Platform, ctx: RequestContext): Promise<{ data: SandboxSummary[] }> {
    const base = platformClock(p);
    await base.refresh();
    const sandboxes = await ctx.store.repos.sandboxes.list(ctx.store);
    const now = base.now().getTime();
    return { data: sandboxes.map((r) => toSummary(r, now)) };
  },
});

function toSummary(r: SandboxEntity, platformNow: number): SandboxSummary {
  return {
    group_id: r.id,
    name: r.name,
    status: r.status === 'forking' || r.status === 'importing' ? r.status : 'active',
    // A list spans every sandbox: one whose offset lies outside the years a clock reaches
    // (a row no API call makes) is shown at the nearest instant there, never a RangeError.
    clock: clampedInstant(platformNow + r.clock_offset_ms),
    offset_ms: r.clock_offset_ms,
    created_at: r.created_at,
  };
}

/** A fork's progress as the API shows it. */
function toForkState(f: ForkProgress): ForkProgressState {
  const copied = Object.values(f.copied).reduce((a, b) => a + b, 0);
  return {
    source_id: f.source_id,
    phase: f.phase === 'map' ? 'mapping' : f.phase === 'copy' ? 'copying' : 'finishing',
    table: f.table,
    ids_mapped: f.size?.mapped ?? 0,
    rows_copied: copied,
    rows_total: Math.max(f.size?.total ?? 0, copied),
  };
}

const groupId = z.object({ group_id: z.string() });

/**
 * How long a clock move's, a fork's or an import's request waits for its work before
 * answering 202 with the progress so far (PAYCTL_CLOCK_ANSWER_MS, PAYCTL_FORK_ANSWER_MS,
 * PAYCTL_IMPORT_ANSWER_MS; default 10 s).
 */
export function answerBudget(env: Env, name: typeof ENV.clockAnswerMs | typeof ENV.forkAnswerMs | typeof ENV.importAnswerMs): number {
  return envInteger(env, name);
}

/** Drop a sandbox and every row of it, in chunks; its keys stop working at once. */
export const deleteSandbox = useCase({
  input: groupId,
  // In chunks (drop-run.ts): a large sandbox's rows never hold the writer for long.
  run: async (p: Platform, ctx: RequestContext, input): Promise<{ group_id: string; deleted: true; rows: Record<string, number> }> => ({
    group_id: input.group_id,
    deleted: true as const,
    rows: await dropSandbox(p, ctx, input.group_id),
  }),
});

/**
 * Copy a sandbox (every row, new ids, same relationships and clock) into a new sandbox,
 * in chunks (fork-run.ts). The first write records the fork, writes the new group (status
 * `forking`) and issues its keys, so the caller holds them whatever happens next (a 202,
 * a kill -9: the server's tick finishes the copy and the same keys then work).
 */
export const forkSandbox = useCase({
  input: forkSandboxSchema.extend(groupId.shape),
  run: (p: Platform, ctx: RequestContext, input) => fork(p, ctx, input, { answerWithinMs: answerBudget(p.env, ENV.forkAnswerMs) }),
});

export type ForkedSandbox = Sandbox & ForkedGroup;

/**
 * Fork `input.group_id`. Without `answerWithinMs` the answer waits for the whole copy;
 * with it, the answer comes when the copy is whole or after that long, whichever is
 * first: then it is the new sandbox with status `forking` and its progress (the route's
 * 202), and the copy goes on after the answer. `progress` hears of the copy (the CLI's bar).
 */
export async function fork(
  p: Platform,
  ctx: RequestContext,
  input: z.output<typeof forkSandboxSchema> & { group_id: string },
  opts: { answerWithinMs?: number; progress?: Progress } = {},
): Promise<ForkedSandbox | Sandbox | ForkingSandbox> {
  const sourceId = input.group_id;
  const newGroupId = newId();
  const started = await unitOfWork(ctx, async ({ tx }) => {
    const source = await tx.repos.sandboxes.find(tx, sourceId);
    if (!source) throw notFound('sandbox');
    if (source.status === 'forking') throw sandboxForking(sourceId);
    if (source.status === 'importing') throw sandboxImporting(sourceId);
    const name = input.name ?? `${source.name} (fork)`.slice(0, 100);
    const at = withGroupClock(p, newGroupId, source.clock_offset_ms).clock.nowIso();
    await tx.repos.groupRows.beginFork(tx, sourceId, newGroupId, name, at);
    return { name, at, keys: await issueKeys(tx, newGroupId, at) };
  });
  const run = runFork(p, newGroupId, finishFork(p), opts.progress);
  const budget = opts.answerWithinMs;
  let timer: NodeJS.Timeout | undefined;
  const late = Symbol('late');
  const outcome = await (budget === undefined
    ? run
    : Promise.race([run, new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), budget)))]).finally(() => clearTimeout(timer)));
  if (outcome === late) {
    // Nobody waits for it any more: a failure is reported here, and the server's tick goes on with the fork.
    run.catch((err: unknown) => process.stderr.write(`fork ${newGroupId} of sandbox ${sourceId} stopped: ${String(err)}; the server's tick goes on with it\n`));
    const state = await sandboxState(p, newGroupId);
    if (state?.status === 'forking' && state.fork) {
      return { group_id: newGroupId, name: started.name, status: 'forking', keys: started.keys, clock: state.clock, created_at: started.at, forked_from: sourceId, fork: state.fork };
    }
  } else if (outcome) {
    return { ...(outcome.extra as ForkedSandbox), keys: started.keys };
  }
  // Over meanwhile without this run: dropped, or finished by another server (the answer then has no id map).
  const g = await ctx.store.repos.sandboxes.find(ctx.store, newGroupId);
  if (!g) throw notFound('sandbox (it was dropped while it was being forked)');
  const [processor] = await ctx.store.repos.processors.listByGroup(ctx.store, newGroupId);
  const [account] = await ctx.store.repos.linkedAccounts.listByGroup(ctx.store, newGroupId);
  const state = await sandboxState(p, newGroupId);
  return {
    group_id: newGroupId,
    name: g.name,
    status: g.status === 'forking' ? 'forking' : 'active',
    processor_id: processor?.id ?? '',
    linked_account_id: account?.id ?? '',
    keys: started.keys,
    clock: state?.clock ?? started.at,
    created_at: g.created_at,
    forked_from: sourceId,
  };
}

/**
 * A sandbox's state: its clock, status and, while it is forking or importing, how far that is.
 * The status and the job's progress are two reads: a job that ends between them (its row goes
 * in the commit that makes the sandbox active) is answered by reading the sandbox once more,
 * never as `importing`/`forking` without its progress.
 */
async function sandboxState(p: Platform, id: string, reread = false): Promise<SandboxSummary | undefined> {
  const base = platformClock(p);
  await base.refresh();
  const g = await p.db.repos.sandboxes.find(p.db, id);
  if (!g) return undefined;
  const summary = toSummary(g, base.now().getTime());
  if (summary.status === 'importing') {
    const j = await p.db.repos.sandboxFiles.importProgress(p.db, id);
    if (j) return { ...summary, import: { source_id: j.source_id, table: j.table, rows_imported: j.rows_imported, rows_total: j.rows_total } };
    return reread ? summary : sandboxState(p, id, true);
  }
  if (summary.status !== 'forking') return summary;
  const progress = await forkProgress(p, id);
  if (progress) return { ...summary, fork: toForkState(progress) };
  return reread ? summary : sandboxState(p, id, true);
}

/** One sandbox: its clock and status, and while it is forking how far the copy is (poll this after a fork's 202). */
export const showSandbox = useCase({
  input: groupId,
  async run(p: Platform, ctx: RequestContext, input): Promise<SandboxSummary> {
    const state = await sandboxState(p, input.group_id);
    if (!state) throw notFound('sandbox');
    return state;
  },
});

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


/** Move one group's clock: `moveClock` for the group the input names, answering after at most the clock answer budget. */
export const moveGroupClock = useCase({
  input: moveGroupClockInput,
  run: (p: Platform, ctx: RequestContext, input) => moveClock(p, ctx, input, undefined, { answerWithinMs: answerBudget(p.env, ENV.clockAnswerMs) }),
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
    const status = (await tx.repos.groups.find(tx, groupId))?.status;
    if (status === 'forking') throw sandboxForking(groupId);
    if (status === 'importing') throw sandboxImporting(groupId);
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
