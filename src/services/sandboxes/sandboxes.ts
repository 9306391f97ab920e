// Sandboxes: a group with everything a test needs (a processor, a linked account, one
// key per permission kind, optionally the demo data) and its own clock; created,
// forked and dropped in one call each. Creating one is a single unit of work (it must
// stay cheap: suites make one per test); dropping and forking are one each, driven by
// the store's list of group-owned tables. These operations act for no group (the admin
// token, or an operator's CLI): `ctx` carries the request, each new or named group's
// time comes from its own clock.
import { z } from 'zod';
import { forGroup, platformClock, withGroupClock, type Platform } from '../platform.js';
import { clockSettingOn, groupTimeOn, type Clock, type GroupClock } from '../clock/clock.js';
import { clockOfRow, modeFields, runningClock, sandboxClockAnswer, type ClockMode, type GroupClockSetting } from '../../domain/clock-modes.js';
import { catchUpRunning, catchUpState, startCatchUp, type CatchUpState } from '../clock/catch-up.js';
import type { SandboxEntity } from '../../store/interfaces/groups.js';
import type { Permission } from '../../domain/permissions.js';
import {
  createSandboxSchema,
  forkSandboxSchema,
  moveGroupClockInput,
  requestedClock,
  type ForkingSandbox,
  type ForkProgressState,
  type MoveClock,
  type SandboxSummary,
} from '../../domain/sandboxes.js';
import { checkedClockMove, clampedInstant, parseInstant } from '../../domain/time.js';
import { notFound, sandboxForking, sandboxImporting, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { unitOfWork } from '../unit-of-work.js';
import { dropSandbox } from './drop-run.js';
import { LATE, untilAnswer, useCase, type UseCaseIo } from '../use-case.js';
import { finishFork, forkProgress, runFork, type ForkedGroup } from './fork-run.js';
import { issueKeys } from './keys.js';
import { addCollector, copyCollectors } from '../webhooks/endpoints.js';
import { beginLease, copyLease } from './leases.js';
import { ttlMs } from '../../domain/sandbox-ttl.js';
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
  clock_mode: ClockMode;
  clock_rate?: number;
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
 * dev/demo.ts's seedDemoInGroup, handed in by the command (or, through the server's
 * options, the route), so this service does not depend on the demo scripts (which call
 * services themselves).
 */
export type DemoSeeder = (g: Platform, ids: SandboxIds) => Promise<Record<string, unknown>>;

/** Create a sandbox (`demo`: filled by `seedDemo`; a server started without one refuses `demo`). */
export const createSandbox = (seedDemo: DemoSeeder | undefined) =>
  useCase({ input: createSandboxSchema, run: (p: Platform, ctx: RequestContext, input: z.output<typeof createSandboxSchema>) => create(p, ctx, input, seedDemo) });

async function create(p: Platform, ctx: RequestContext, input: z.output<typeof createSandboxSchema>, seedDemo: DemoSeeder | undefined): Promise<Sandbox> {
  if (input.demo && !seedDemo) throw validationError([{ path: 'demo', message: 'is not available on this server (it was started without the demo data)' }]);
  const base = platformClock(p);
  const asked = requestedClock(input.clock);
  const start = asked.time === undefined ? base.now().getTime() : parseInstant(asked.time).getTime();
  // No start time, running: the platform's own time (offset 0), not a second reading of it.
  const setting = asked.time === undefined && asked.mode === 'running' ? runningClock(0) : clockSettingOn(base, asked.mode, start, asked.rate);
  const groupId = newId();
  const g = withGroupClock(p, groupId, setting);
  const now = g.clock.nowIso();
  const group: SandboxEntity = {
    id: groupId,
    name: input.name ?? 'Sandbox',
    pricing: 'flat',
    status: 'active',
    created_at: now,
    updated_at: now,
    ...clockColumns(setting),
  };
  const processor = { id: newId(), group_id: groupId, name: 'Simulated Processor', type: 'transaction_level', created_at: now };
  const account = { id: newId(), group_id: groupId, processor_id: processor.id, name: 'Sandbox linked account', created_at: now };
  const { keys, collector } = await unitOfWork(ctx, async ({ tx }) => {
    await tx.repos.sandboxes.insert(tx, group);
    await tx.repos.processors.insert(tx, processor);
    await tx.repos.linkedAccounts.insert(tx, account);
    await beginLease(tx, groupId, input.ttl === undefined ? undefined : ttlMs(input.ttl));
    const keys = await issueKeys(tx, groupId, now);
    return { keys, collector: input.webhooks === 'collect' ? await addCollector(tx, groupId, now) : undefined };
  });
  const ids: SandboxIds = { group_id: groupId, processor_id: processor.id, linked_account_id: account.id };
  const demo = input.demo && seedDemo ? await seedDemo(g, ids) : {};
  // Kept so that a recording of this sandbox refers to the demo's objects as ${demo.*}.
  if (input.demo) await ctx.store.write((tx) => tx.repos.recordings.setDemo(tx, groupId, demo));
  return { ...ids, name: group.name, status: 'active', keys, clock: g.clock.nowIso(), ...sandboxClockAnswer(setting), created_at: now, ...collectorFields(collector), ...demo };
}

/** A collect endpoint's secret and id, in the answer that made it (shown there only). */
const collectorFields = (c: { id: string; secret: string } | undefined) => (c ? { webhook_secret: c.secret, webhook_endpoint_id: c.id } : {});

export const listSandboxes = useCase({
  input: z.object({}),
  async run(p: Platform, ctx: RequestContext): Promise<{ data: SandboxSummary[] }> {
    const base = platformClock(p);
    await base.refresh();
    const sandboxes = await ctx.store.repos.sandboxes.list(ctx.store);
    const leases = new Map((await ctx.store.repos.leases.list(ctx.store)).map((l) => [l.group_id, l]));
    return { data: sandboxes.map((r) => ({ ...toSummary(r, base), ...leaseFields(leases.get(r.id)) })) };
  },
});

/** A sandbox's time to live as its summary shows it (nothing without one). */
function leaseFields(l: { ttl_ms: number; last_request_ms: number } | undefined): Pick<SandboxSummary, 'ttl_seconds' | 'expires_at'> {
  return l ? { ttl_seconds: Math.round(l.ttl_ms / 1000), expires_at: new Date(l.last_request_ms + l.ttl_ms).toISOString() } : {};
}

function toSummary(r: SandboxEntity, base: Clock): SandboxSummary {
  const clock = clockOfRow(r);
  return {
    group_id: r.id,
    name: r.name,
    status: r.status === 'forking' || r.status === 'importing' ? r.status : 'active',
    // A list spans every sandbox: one whose clock lies outside the years a clock reaches
    // (a row no API call makes) is shown at the nearest instant there, never a RangeError.
    clock: clampedInstant(groupTimeOn(base, clock)),
    ...sandboxClockAnswer(clock),
    offset_ms: clock.mode === 'running' ? clock.offset_ms : 0,
    created_at: r.created_at,
  };
}

/** A sandbox row's clock columns for a setting. */
const clockColumns = (s: GroupClockSetting) => ({ clock_offset_ms: s.offset_ms, clock_mode: s.mode, clock_rate: s.rate, clock_at_ms: s.at_ms, clock_since_ms: s.since_ms });

/** The clock mode fields of a summary, for another answer. */
const modeOf = (s: SandboxSummary): { clock_mode: ClockMode; clock_rate?: number } => (s.clock_rate === undefined ? { clock_mode: s.clock_mode } : { clock_mode: s.clock_mode, clock_rate: s.clock_rate });

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
  run: (p: Platform, ctx: RequestContext, input, io) => fork(p, ctx, input, io),
});

export type ForkedSandbox = Sandbox & ForkedGroup;

/**
 * Fork `input.group_id`. Without `io.answerWithinMs` the answer waits for the whole copy;
 * with it, the answer comes when the copy is whole or after that long, whichever is
 * first: then it is the new sandbox with status `forking` and its progress (the route's
 * 202), and the copy goes on after the answer. `io.progress` hears of the copy (the CLI's bar).
 */
export async function fork(
  p: Platform,
  ctx: RequestContext,
  input: z.output<typeof forkSandboxSchema> & { group_id: string },
  io: UseCaseIo = {},
): Promise<ForkedSandbox | Sandbox | ForkingSandbox> {
  const sourceId = input.group_id;
  const newGroupId = newId();
  const started = await unitOfWork(ctx, async ({ tx }) => {
    const source = await tx.repos.sandboxes.find(tx, sourceId);
    if (!source) throw notFound('sandbox');
    if (source.status === 'forking') throw sandboxForking(sourceId);
    if (source.status === 'importing') throw sandboxImporting(sourceId);
    const name = input.name ?? `${source.name} (fork)`.slice(0, 100);
    const at = withGroupClock(p, newGroupId, clockOfRow(source)).clock.nowIso();
    await tx.repos.groupRows.beginFork(tx, sourceId, newGroupId, name, at);
    await copyLease(tx, sourceId, newGroupId);
    const keys = await issueKeys(tx, newGroupId, at);
    // Endpoints are not copied (their secrets were shown once); a collector is made anew, so the fork's webhooks are collected too.
    return { name, at, keys, collector: collectorFields(await copyCollectors(tx, sourceId, newGroupId, at)) };
  });
  const run = runFork(p, newGroupId, finishFork(p), io.progress);
  const outcome = await untilAnswer(run, io);
  if (outcome === LATE) {
    // Nobody waits for it any more: a failure is reported here, and the server's tick goes on with the fork.
    run.catch((err: unknown) => process.stderr.write(`fork ${newGroupId} of sandbox ${sourceId} stopped: ${String(err)}; the server's tick goes on with it\n`));
    const state = await sandboxState(p, newGroupId);
    if (state?.status === 'forking' && state.fork) {
      return {
        group_id: newGroupId,
        name: started.name,
        status: 'forking',
        keys: started.keys,
        ...started.collector,
        clock: state.clock,
        ...modeOf(state),
        created_at: started.at,
        forked_from: sourceId,
        fork: state.fork,
      };
    }
  } else if (outcome) {
    return { ...(outcome.extra as ForkedSandbox), keys: started.keys, ...started.collector };
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
    ...started.collector,
    clock: state?.clock ?? started.at,
    ...sandboxClockAnswer(clockOfRow(g)),
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
  const summary = { ...toSummary(g, base), ...leaseFields(await p.db.repos.leases.find(p.db, id)) };
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
  mode: ClockMode;
  rate?: number;
  work?: Record<string, number>;
  catch_up?: CatchUpState;
}

/** A group's time now, and its own offset from the platform clock. */
export const showGroupClock = useCase({
  input: groupId,
  run: (p: Platform, ctx: RequestContext, input) => groupClock(p, input.group_id),
});

/**
 * A group's time now and whether this server is catching it up, without counting the work
 * that is due (the dashboard's clock panel, read on every page: the count is the clock
 * route's, and the panel's while a catch-up runs).
 */
export const peekGroupClock = useCase({
  input: groupId,
  async run(p: Platform, ctx: RequestContext, input): Promise<GroupClockState & { catching_up: boolean }> {
    const g = await forGroup(p, input.group_id);
    if (g.groupId !== input.group_id) throw notFound('group');
    await g.clock.refresh();
    const setting = (g.clock as GroupClock).clockSetting;
    return {
      group_id: input.group_id,
      now: g.clock.nowIso(),
      offset_ms: setting.mode === 'running' ? setting.offset_ms : 0,
      ...modeFields(setting),
      catching_up: catchUpRunning(p.db, input.group_id),
    };
  },
});

async function groupClock(p: Platform, groupId: string, finished = false): Promise<GroupClockState> {
  const g = await forGroup(p, groupId);
  if (g.groupId !== groupId) throw notFound('group');
  await g.clock.refresh();
  const setting = (g.clock as GroupClock).clockSetting;
  return {
    group_id: groupId,
    now: g.clock.nowIso(),
    offset_ms: setting.mode === 'running' ? setting.offset_ms : 0,
    ...modeFields(setting),
    catch_up: await catchUpState(p, groupId, finished),
  };
}

/** Move one group's clock: `moveClock` for the group the input names. */
export const moveGroupClock = useCase({
  input: moveGroupClockInput,
  run: (p: Platform, ctx: RequestContext, input, io) => moveClock(p, ctx, input, io),
});

/**
 * Move one group's clock ({advance: "30d"} or {set: time}) and run that group's due
 * work, nothing of any other group. Never backwards: a set before the group's time now
 * is a 400 naming `set`. The offset is read and written in one unit of work (with the
 * request's Idempotency-Key, so a retried advance moves the clock once), then the due
 * work runs as the group's catch-up, in chunks (`io.progress` hears of it: the CLI's
 * progress bar). With `io.answerWithinMs`, the answer comes when the group has caught up or
 * after that long, whichever is first: then `catch_up.status` is `running` and the
 * catch-up goes on after the answer (the route answers 202).
 */
async function moveClock(
  p: Platform,
  ctx: RequestContext,
  input: MoveClock & { group_id: string },
  io: UseCaseIo,
): Promise<GroupClockState & { work: Record<string, number> }> {
  const groupId = input.group_id;
  const base = platformClock(p);
  await base.refresh();
  await unitOfWork(ctx, async ({ tx }) => {
    const own = await tx.repos.groupClocks.get(tx, groupId);
    if (own === undefined) throw notFound('group');
    const status = (await tx.repos.groups.find(tx, groupId))?.status;
    if (status === 'forking') throw sandboxForking(groupId);
    if (status === 'importing') throw sandboxImporting(groupId);
    const current = groupTimeOn(base, own);
    // Never backwards, at most 10 years per request, within the supported years (docs/decisions.md#clock-moves).
    let target = current;
    if (input.advance !== undefined || input.set !== undefined) {
      target = checkedClockMove(current, input);
    }
    const mode = (input.mode ?? own.mode) as ClockMode;
    // A running clock stays running by its offset, moved by exactly the move (no second reading of real time).
    const next = mode === 'running' && own.mode === 'running' ? runningClock(own.offset_ms + (target - current)) : clockSettingOn(base, mode, target, input.rate ?? own.rate);
    await tx.repos.groupClocks.put(tx, groupId, next);
    // Deliveries keep real time unless the clock runs (clock.ts deliveryClock): a change of
    // that makes the group's pending deliveries due now, in the new clock's time.
    if ((mode === 'running') !== (own.mode === 'running')) {
      const deliveriesAt = mode === 'running' ? new Date(target).toISOString() : base.nowIso();
      await tx.repos.webhookDeliveries.rescheduleGroup(tx, groupId, deliveriesAt);
    }
    return { group_id: groupId };
  });
  const run = startCatchUp(p, groupId, io.progress);
  const finished = (await untilAnswer(run.promise, io)) !== LATE;
  // catch_up.status is `running` exactly when this move's work is still going (the route's 202).
  return { ...(await groupClock(p, groupId, finished)), work: { ...run.work } };
}
