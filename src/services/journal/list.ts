// Reading the request journal (docs/journal.md): `GET /api/v1/sandboxes/{group_id}/requests`
// and the dashboard's request views. `listRequests` is a plain function of the filters to a
// page — oldest first, newest last, a cursor to the next — so a long-poll can run it again
// until something matches. The dashboard asks for `newest_first` (not a query parameter of
// the API: a query string cannot carry the literal `true`): the newest page that matches,
// `starting_after` then naming the calls older than it (the next page in that order).
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { notFound, validationError } from '../../errors.js';
import { requestsQuerySchema, statusRange, type JournalItem, type JournalPage } from '../../domain/journal.js';
import type { JournalCall, JournalQuery } from '../../store/interfaces/journal.js';
import type { Executor } from '../../store/interfaces/db.js';
import { flushJournal, onJournalWritten } from './writer.js';
import { longPoll } from '../long-poll.js';
import { waitPlan } from '../../domain/waiting.js';

export const toJournalItem = (e: JournalCall): JournalItem => ({
  id: e.request_id,
  seq: e.seq,
  at: e.at,
  method: e.method,
  path: e.path,
  route: e.route,
  status: e.status,
  duration_ms: e.duration_ms,
  idempotency_key: e.idempotency_key,
  fault: e.fault,
  body: e.body,
  answer: e.answer,
  note: e.note,
});

/** 404 unless `groupId` is a group (any group: a sandbox, the demo group, a merchant's). */
export async function requireGroup(ex: Executor, groupId: string): Promise<void> {
  if ((await ex.repos.groupClocks.get(ex, groupId)) === undefined) throw notFound('group');
}

export const listRequestsInput = requestsQuerySchema.extend({
  group_id: z.string(),
  /** Newest first (the dashboard's Requests view): `starting_after` then answers the calls before it. Not with `wait`. */
  newest_first: z.literal(true).optional(),
});

/** Calls `notify` whenever this process journals calls of the group (the dashboard's live page); the answer subscribes and returns the unsubscribe. */
export const watchRequests = useCase({
  input: z.object({ group_id: z.string() }),
  run: async (p: Platform, ctx: RequestContext, input) => (notify: () => void): (() => void) => onJournalWritten(ctx.store, input.group_id, notify),
});

export const listRequests = useCase({
  input: listRequestsInput,
  async run(p: Platform, ctx: RequestContext, input, io): Promise<JournalPage> {
    const store = ctx.store;
    const { waitMs, count } = waitPlan(input);
    await flushJournal(p);
    await requireGroup(store, input.group_id);
    if (input.newest_first && waitMs > 0) throw validationError([{ path: 'wait', message: 'waits for newer calls: not with newest first' }]);
    const q: JournalQuery = { group_id: input.group_id, limit: input.limit + 1 };
    if (input.newest_first) q.newest_first = true;
    if (input.method) q.method = input.method;
    if (input.path !== undefined) {
      if (input.path.endsWith('*')) q.path_prefix = input.path.slice(0, -1);
      else q.path = input.path;
    }
    if (input.status) [q.status_min, q.status_max] = statusRange(input.status);
    if (input.since) q.since = input.since;
    if (input.starting_after) {
      const seq = await store.repos.journal.seqOf(store, input.group_id, input.starting_after);
      if (seq === undefined) {
        throw validationError([{ path: 'starting_after', message: "is no call in this group's journal (unknown, or dropped: the journal keeps the last calls only)" }]);
      }
      if (input.newest_first) q.until_seq = seq - 1;
      else q.after_seq = seq;
    }
    const read = async (): Promise<JournalPage> => {
      const [rows, state] = await Promise.all([store.repos.journal.listCalls(store, q), store.repos.journal.state(store, input.group_id)]);
      return { data: { items: rows.slice(0, input.limit).map(toJournalItem), has_more: rows.length > input.limit, dropped: state?.dropped ?? 0 } };
    };
    // With `wait`: read again whenever this process writes the group's calls (its writer holds them up to 100 ms).
    return longPoll({
      waitMs,
      count,
      signal: io.signal,
      read: async () => {
        await flushJournal(p);
        return read();
      },
      size: (page) => page.data.items.length,
      wake: (notify) => onJournalWritten(p.db, input.group_id, notify),
    });
  },
});

export const getRequestInput = z.object({ group_id: z.string(), request_id: z.string() });

/** One call of the journal by its id, with the headers it kept (Idempotency-Key, Payctl-Simulate): the dashboard's request page. */
export const getRequest = useCase({
  input: getRequestInput,
  async run(p: Platform, ctx: RequestContext, input): Promise<JournalItem & { headers: Record<string, string> }> {
    const store = ctx.store;
    await flushJournal(p);
    await requireGroup(store, input.group_id);
    const seq = await store.repos.journal.seqOf(store, input.group_id, input.request_id);
    const row = seq === undefined ? undefined : (await store.repos.journal.listCalls(store, { group_id: input.group_id, after_seq: seq - 1, limit: 1 }))[0];
    if (!row || row.request_id !== input.request_id) throw notFound('request (unknown, or dropped: the journal keeps the last calls only)');
    return { ...toJournalItem(row), headers: row.headers ?? {} };
  },
});
