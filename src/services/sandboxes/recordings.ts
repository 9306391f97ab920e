// Recording a sandbox's API traffic (docs/scenarios.md): start, stop, the calls, and the
// scenario file they make. The server keeps the set of recording groups in memory,
// reloaded when config_version moves (starting or stopping bumps it, and every request
// has read that counter already), so a request of a group that does not record costs one
// set lookup. A recorded call is appended before its answer is sent, so a client that
// asks for the recording after its last answer finds every call in it.
import { z } from 'zod';
import { stringify } from 'yaml';
import type { Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { invalidRequest, notFound } from '../../errors.js';
import type { Store } from '../../store/interfaces/db.js';
import { configCache } from '../../store/config-cache.js';
import type { RecordedCall } from '../../store/interfaces/recordings.js';
import { recordingQuerySchema, recordingToScenario, redact, type CallRecord } from '../../domain/recording.js';
import { testCards } from '../../processor/test-cards.js';
import { forGroup } from '../platform.js';

interface Loaded {
  version: number;
  groups: Set<string>;
}
const loaded = new WeakMap<Store, Loaded>();

async function activeNow(db: Store): Promise<Set<string>> {
  const cache = configCache(db);
  const version = cache.currentVersion ?? (await cache.check(db));
  const current = loaded.get(db);
  if (current?.version === version) return current.groups;
  const groups = new Set(await db.repos.recordings.listActive(db));
  loaded.set(db, { version, groups });
  return groups;
}

/** Whether `groupId` may be recording, from memory: false only when the current set says it is not. */
export function mayRecord(db: Store, groupId: string): boolean {
  const state = loaded.get(db);
  if (state === undefined || state.version !== configCache(db).currentVersion) return true;
  return state.groups.has(groupId);
}

/** Whether any group records now (a public call names its sandbox only then). */
export function mayRecordAnywhere(db: Store): boolean {
  const state = loaded.get(db);
  return state === undefined || state.version !== configCache(db).currentVersion || state.groups.size > 0;
}

/** Headers a recorded call keeps: they change what the call does (never Authorization). */
const KEPT_HEADERS = ['idempotency-key', 'payctl-simulate'];

/** Append one call of `groupId` when it records (secrets taken out here, before anything is stored). */
/** What JSON.parse gives: a request body as its client sent it (any JSON; none is null). */
export type ParsedJson = null | boolean | number | string | ParsedJson[] | { [key: string]: ParsedJson };

export async function recordCall(p: Platform, groupId: string, call: { method: string; path: string; route: string; headers: Record<string, unknown>; body: ParsedJson; status: number; answer: unknown }): Promise<void> {
  if (!mayRecord(p.db, groupId) || !(await activeNow(p.db)).has(groupId)) return;
  const g = await forGroup(p, groupId);
  const headers = Object.fromEntries(KEPT_HEADERS.filter((h) => typeof call.headers[h] === 'string').map((h) => [h === 'idempotency-key' ? 'Idempotency-Key' : 'Payctl-Simulate', call.headers[h] as string]));
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(redact(v)));
  // A tokenize call keeps no body at all: the card typed is never recorded.
  const body = call.route === '/api/v1/tokens' ? null : json(call.body);
  const row: RecordedCall = {
    group_id: groupId,
    method: call.method,
    path: call.path,
    route: call.route,
    headers: Object.keys(headers).length > 0 ? JSON.stringify(headers) : null,
    body,
    status: call.status,
    answer: json(call.answer),
    recorded_at: g.clock.nowIso(),
  };
  await p.db.write((tx) => tx.repos.recordings.append(tx, row));
}

const groupInput = z.object({ group_id: z.string() });

async function requireSandbox(ctx: RequestContext, groupId: string): Promise<void> {
  if (!(await ctx.store.repos.faultRules.isSandbox(ctx.store, groupId))) throw notFound('sandbox');
}

export interface RecordingSummary {
  group_id: string;
  recording: boolean;
  started_at: string;
  stopped_at: string | null;
  calls: number;
}

export const startRecording = useCase({
  input: groupInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<RecordingSummary> {
    await requireSandbox(ctx, input.group_id);
    const g = await forGroup(p, input.group_id);
    const at = g.clock.nowIso();
    await ctx.store.write((tx) => tx.repos.recordings.start(tx, input.group_id, at));
    return { group_id: input.group_id, recording: true, started_at: at, stopped_at: null, calls: 0 };
  },
});

export const stopRecording = useCase({
  input: groupInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<RecordingSummary> {
    await requireSandbox(ctx, input.group_id);
    const g = await forGroup(p, input.group_id);
    const stopped = await ctx.store.write(async (tx) => {
      if ((await tx.repos.recordings.stop(tx, input.group_id, g.clock.nowIso())).changes === 0) throw invalidRequest('this sandbox is not recording: POST …/recording starts it');
      return tx.repos.recordings.find(tx, input.group_id);
    });
    const calls = await ctx.store.repos.recordings.calls(ctx.store, input.group_id);
    return { group_id: input.group_id, recording: false, started_at: stopped!.started_at, stopped_at: stopped!.stopped_at, calls: calls.length };
  },
});

const toCall = (r: RecordedCall): CallRecord => ({
  method: r.method,
  path: r.path,
  route: r.route,
  headers: r.headers === null ? null : (JSON.parse(r.headers) as Record<string, string>),
  body: r.body === null ? null : JSON.parse(r.body),
  status: r.status,
  answer: r.answer === null ? null : JSON.parse(r.answer),
});

/** The recording: its state and calls (format json), or the scenario file they make (format scenario: YAML text). */
export const getRecording = useCase({
  input: groupInput.extend(recordingQuerySchema.shape),
  async run(p: Platform, ctx: RequestContext, input): Promise<(RecordingSummary & { data: CallRecord[] }) | { scenario: string }> {
    await requireSandbox(ctx, input.group_id);
    const state = await ctx.store.repos.recordings.find(ctx.store, input.group_id);
    if (!state) throw notFound('recording (POST …/recording starts one)');
    const calls = (await ctx.store.repos.recordings.calls(ctx.store, input.group_id)).map(toCall);
    if (input.format !== 'scenario') {
      return { group_id: input.group_id, recording: state.stopped_at === null, started_at: state.started_at, stopped_at: state.stopped_at, calls: calls.length, data: calls };
    }
    const [processor] = await ctx.store.repos.processors.listByGroup(ctx.store, input.group_id);
    const [account] = await ctx.store.repos.linkedAccounts.listByGroup(ctx.store, input.group_id);
    const demo = await ctx.store.repos.recordings.demo(ctx.store, input.group_id);
    const scenario = recordingToScenario(calls, {
      name: `recording of sandbox ${input.group_id}`,
      group_id: input.group_id,
      processor_id: processor?.id ?? '',
      linked_account_id: account?.id ?? '',
      demo: demo === null ? null : (JSON.parse(demo) as Record<string, unknown>),
      started_at: state.started_at,
      test_cards: testCards().cards,
    });
    return { scenario: `# Recorded by payctl (docs/scenarios.md): replay with \`payctl scenario run FILE\`.\n${stringify(scenario, { lineWidth: 0 })}` };
  },
});
