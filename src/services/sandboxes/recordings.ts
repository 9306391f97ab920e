// Recording a sandbox's API traffic (docs/scenarios.md): start, stop, the calls, and the
// scenario file they make. A recording is a view of the request journal (docs/journal.md):
// the range of the group's journal between its start and its stop, of the calls made
// with the sandbox's keys or the admin token (or public calls naming it), so it is as
// bounded as the journal is and costs a call nothing of its own. Reading one streams it
// a page at a time.
import { stringify } from 'yaml';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { invalidRequest, notFound } from '../../errors.js';
import type { Executor } from '../../store/interfaces/db.js';
import type { JournalCall, JournalQuery, StoredJournalEntry } from '../../store/interfaces/journal.js';
import type { RecordingState } from '../../store/interfaces/recordings.js';
import { recordingQuerySchema, scenarioStepper, type CallRecord, type RecordingContext } from '../../domain/recording.js';
import { testCards } from '../../processor/test-cards.js';
import { forGroup } from '../platform.js';
import { flushJournal, journalWriter } from '../journal/writer.js';

const groupInput = z.object({ group_id: z.string() });
/** Calls read per page of a recording: a call may hold two bodies of up to 256 KiB (domain/journal.ts), so a page stays within a few MiB. */
const PAGE = 8;
/** Calls read per page to make a scenario: each is parsed and printed as YAML, which holds several times its text. */
const SCENARIO_PAGE = 2;

async function requireSandbox(ctx: RequestContext, groupId: string): Promise<void> {
  if (!(await ctx.store.repos.groups.isSandbox(ctx.store, groupId))) throw notFound('sandbox');
}

export interface RecordingSummary {
  group_id: string;
  recording: boolean;
  started_at: string;
  stopped_at: string | null;
  calls: number;
  dropped: number;
}

/** The journal's last sequence number of the group now (0 before its first call). */
async function lastSeq(ex: Executor, groupId: string): Promise<number> {
  return (await ex.repos.journal.state(ex, groupId))?.last_seq ?? 0;
}

/** The recording's range of the journal: its first and its last sequence number (the last call so far while it records). */
async function range(ex: Executor, state: RecordingState): Promise<{ from: number; until: number }> {
  return { from: state.from_seq, until: state.until_seq ?? (await lastSeq(ex, state.group_id)) };
}

async function summaryOf(ex: Executor, state: RecordingState): Promise<RecordingSummary> {
  const { from, until } = await range(ex, state);
  const calls = await ex.repos.journal.count(ex, { group_id: state.group_id, after_seq: from - 1, until_seq: until, recordable: true });
  // The journal keeps a group's last calls: those of the range it no longer holds were dropped.
  const first = (await ex.repos.journal.firstSeq(ex, state.group_id)) ?? until + 1;
  const dropped = Math.max(0, Math.min(first, until + 1) - from);
  return { group_id: state.group_id, recording: state.stopped_at === null, started_at: state.started_at, stopped_at: state.stopped_at, calls, dropped };
}

/** The recording's state and count of calls, without its calls (the dashboard's Recording page). */
export const getRecordingSummary = useCase({
  input: groupInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<RecordingSummary> {
    await requireSandbox(ctx, input.group_id);
    await flushJournal(p);
    const state = await ctx.store.repos.recordings.find(ctx.store, input.group_id);
    if (!state) throw notFound('recording (POST …/recording starts one)');
    return summaryOf(ctx.store, state);
  },
});

export const startRecording = useCase({
  input: groupInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<RecordingSummary> {
    await requireSandbox(ctx, input.group_id);
    if (!journalWriter(p)) throw invalidRequest('the request journal is off (PAYCTL_JOURNAL=off), and a recording is a view of it: docs/journal.md');
    await flushJournal(p);
    const g = await forGroup(p, input.group_id);
    const at = g.clock.nowIso();
    const from = (await lastSeq(ctx.store, input.group_id)) + 1;
    await ctx.store.write((tx) => tx.repos.recordings.start(tx, input.group_id, at, from));
    return { group_id: input.group_id, recording: true, started_at: at, stopped_at: null, calls: 0, dropped: 0 };
  },
});

export const stopRecording = useCase({
  input: groupInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<RecordingSummary> {
    await requireSandbox(ctx, input.group_id);
    await flushJournal(p);
    const g = await forGroup(p, input.group_id);
    const until = await lastSeq(ctx.store, input.group_id);
    const stopped = await ctx.store.write(async (tx) => {
      if ((await tx.repos.recordings.stop(tx, input.group_id, g.clock.nowIso(), until)).changes === 0) throw invalidRequest('this sandbox is not recording: POST …/recording starts it');
      return tx.repos.recordings.find(tx, input.group_id);
    });
    return summaryOf(ctx.store, stopped!);
  },
});

/** The recording's calls, a page at a time, in order: with the JSON texts the journal kept (`list`), or read (`listCalls`). */
async function* recordedCalls<T extends { seq: number }>(
  ex: Executor,
  read: (ex: Executor, q: JournalQuery) => Promise<T[]>,
  groupId: string,
  from: number,
  until: number,
  size = PAGE,
): AsyncGenerator<T[]> {
  let after = from - 1;
  for (;;) {
    const page = await read(ex, { group_id: groupId, after_seq: after, until_seq: until, recordable: true, limit: size });
    if (page.length > 0) yield page;
    if (page.length < size) return;
    after = page.at(-1)!.seq;
  }
}

const toCall = (e: JournalCall): CallRecord => ({
  method: e.method,
  path: e.path,
  route: e.route,
  headers: e.headers,
  body: e.body,
  status: e.status,
  answer: e.answer,
});

/** A recording as the API answers it in JSON (src/http/recording-json.ts writes it): its summary, then its calls page by page, their JSON texts as the journal kept them. */
export interface RecordingJson {
  summary: RecordingSummary;
  pages: AsyncIterable<StoredJournalEntry[]>;
}

/**
 * The recording: its state and calls (format json: the summary and the calls a page at a
 * time, which the HTTP adapter writes as JSON), or the scenario file they make (format
 * scenario: YAML text).
 */
export const getRecording = useCase({
  input: groupInput.extend(recordingQuerySchema.shape),
  async run(p: Platform, ctx: RequestContext, input): Promise<{ json: RecordingJson } | { scenario: AsyncIterable<string> }> {
    await requireSandbox(ctx, input.group_id);
    await flushJournal(p);
    const store = ctx.store;
    const state = await store.repos.recordings.find(store, input.group_id);
    if (!state) throw notFound('recording (POST …/recording starts one)');
    if (input.format !== 'scenario') {
      const summary = await summaryOf(store, state);
      // The range is read when the pages are first asked for (after the summary is written).
      async function* pages(): AsyncGenerator<StoredJournalEntry[]> {
        const { from, until } = await range(store, state!);
        yield* recordedCalls(store, (e, q) => e.repos.journal.list(e, q), state!.group_id, from, until);
      }
      return { json: { summary, pages: pages() } };
    }
    const [processor] = await store.repos.processors.listByGroup(store, input.group_id);
    const [account] = await store.repos.linkedAccounts.listByGroup(store, input.group_id);
    const demo = await store.repos.recordings.demo(store, input.group_id);
    const context: RecordingContext = {
      name: `recording of sandbox ${input.group_id}`,
      group_id: input.group_id,
      processor_id: processor?.id ?? '',
      linked_account_id: account?.id ?? '',
      demo,
      started_at: state.started_at,
      test_cards: testCards().cards,
    };
    return { scenario: scenarioText(store, input.group_id, await range(store, state), context) };
  },
});

/** A step as the items of the scenario's `steps:` list print it (the same text as the whole file's YAML would hold). */
const stepText = (step: Record<string, unknown>): string => stringify({ steps: [step] }, { lineWidth: 0 }).slice('steps:\n'.length);

/**
 * The scenario file of a recording, written a few calls at a time (docs/scenarios.md
 * "Bounded"): a first read of the calls finds the steps later ones refer to, the
 * second writes each step. The journal may drop a recording's oldest calls between the
 * two (its bound): then the first read is made again from the oldest call left.
 */
async function* scenarioText(ex: Executor, groupId: string, bounds: { from: number; until: number }, context: RecordingContext): AsyncGenerator<string> {
  let from = bounds.from;
  for (let attempt = 0; ; attempt++) {
    const first = scenarioStepper(context);
    let firstSeq: number | undefined;
    for await (const page of recordedCalls(ex, (e, q) => e.repos.journal.listCalls(e, q), groupId, from, bounds.until, SCENARIO_PAGE)) {
      firstSeq ??= page[0]!.seq;
      for (const e of page) first.step(toCall(e));
    }
    const second = scenarioStepper(context, first.used);
    const pages = recordedCalls(ex, (e, q) => e.repos.journal.listCalls(e, q), groupId, from, bounds.until, SCENARIO_PAGE);
    const opening = await pages.next();
    const seq = opening.done ? undefined : opening.value[0]!.seq;
    if (seq !== firstSeq && attempt < 3) {
      from = seq ?? bounds.until + 1;
      continue;
    }
    yield `# Recorded by payctl (docs/scenarios.md): replay with \`payctl scenario run FILE\`.\n${stringify(first.head(), { lineWidth: 0 })}`;
    let any = false;
    const rest = async function* (): AsyncGenerator<JournalCall[]> {
      if (!opening.done) yield opening.value;
      yield* pages;
    };
    for await (const page of rest()) {
      for (const e of page) {
        const step = second.step(toCall(e));
        if (!step) continue;
        yield (any ? '' : 'steps:\n') + stepText(step);
        any = true;
      }
    }
    if (!any) yield 'steps: []\n';
    return;
  }
}
