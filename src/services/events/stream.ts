// The live event stream (Server-Sent Events): a group's events in log order, from a
// position on. Each message's `id:` is the event's place in the log (`seq`, commit
// order across processes), so a client that reconnects with Last-Event-ID resumes
// exactly after the last event it received: nothing is lost and nothing repeated.
// New events are found by polling the log from the stream's position (events written
// by any process on the database) and, for events of this process, at once on the
// in-process nudge. The SSE framing, the heartbeat comments and the response head are
// better-sse's.
import { once } from 'node:events';
import type { z } from 'zod';
import { createSession } from 'better-sse';
import type { GroupContext } from '../context.js';
import type { StreamIo } from '../../http/route.js';
import { eventRepo } from '../../store/repositories/events.js';
import { eventStreamQuerySchema, matchesTypes, streamCursor, type StreamReady } from '../../domain/events.js';
import { validationError } from '../../errors.js';
import { useCase } from '../use-case.js';
import type { Platform } from '../platform.js';
import { toEvent } from './events.js';
import { onEventsCommitted } from './nudge.js';

/** Events sent per read of the log (a client far behind catches up page by page). */
export const STREAM_PAGE = 500;
/** How often a stream looks for events other processes committed (server setting `eventStreamPollMs`). */
export const STREAM_POLL_MS = 250;
/** Heartbeat comment interval, so proxies and clients see a live connection (server setting `eventStreamHeartbeatMs`). */
export const STREAM_HEARTBEAT_MS = 15_000;
/** The reconnection delay suggested to clients (`retry:`). */
export const STREAM_RETRY_MS = 1_000;

export interface StreamPlan {
  group: string;
  /** The position the stream starts after. */
  after: number;
  types: string[];
}

/**
 * Checks a stream request before its answer starts (so a bad one is a plain 400): the type
 * filter and where to start — after Last-Event-ID (or `last_event_id`), else after the
 * log's current end (only new events).
 */
/**
 * The stream's input: its query and the Last-Event-ID header, named so (the HTTP adapter
 * adds the header to the query; a query parameter of that name cannot override it).
 */
const streamInput = eventStreamQuerySchema.extend({ 'Last-Event-ID': streamCursor.optional() });

export const openEventStream = useCase({ input: streamInput, run: open });

async function open(p: Platform, ctx: GroupContext, input: z.output<typeof streamInput>): Promise<StreamPlan> {
  const header = input['Last-Event-ID'];
  const cursor = header ?? input.last_event_id;
  const end = await eventRepo.lastSeq(ctx.store);
  let after = end;
  if (cursor !== undefined) {
    if (/^\d+$/.test(cursor)) {
      // A position past the end (a log that was reset) starts at the end.
      after = Math.min(Number(cursor), end);
    } else {
      const seq = await eventRepo.seqOf(ctx.store, ctx.group, cursor);
      if (seq === undefined) {
        throw validationError([{ path: header !== undefined ? 'Last-Event-ID' : 'last_event_id', message: 'no event of this group has this id' }]);
      }
      after = seq;
    }
  }
  return { group: ctx.group, after, types: input.types ?? ['*'] };
}

/** Sends the stream until the client goes away or the server shuts down. */
export async function runEventStream(ctx: GroupContext, plan: StreamPlan, io: StreamIo): Promise<void> {
  const pollMs = positive(io.settings.eventStreamPollMs) ?? STREAM_POLL_MS;
  const heartbeatMs = positive(io.settings.eventStreamHeartbeatMs) ?? STREAM_HEARTBEAT_MS;
  let dirty = true;
  let wake: (() => void) | undefined;
  const off = onEventsCommitted(plan.group, () => {
    dirty = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  io.signal.addEventListener('abort', onAbort);
  try {
    const session = await createSession(io.req, io.res, {
      keepAlive: heartbeatMs,
      retry: STREAM_RETRY_MS,
      // The position is ours (the log), not better-sse's.
      trustClientEventId: false,
      headers: { 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' },
    });
    let cursor = plan.after;
    const ready: StreamReady = { last_event_id: String(cursor), types: plan.types };
    session.push(ready, 'ready', String(cursor));
    while (!io.signal.aborted && session.isConnected) {
      dirty = false;
      const rows = await eventRepo.after(ctx.store, plan.group, cursor, STREAM_PAGE);
      if (rows.length > 0 && !io.signal.aborted && session.isConnected) {
        await session.batch((buffer) => {
          for (const row of rows) {
            if (matchesTypes(plan.types, row.type)) buffer.push(toEvent(row), row.type, String(row.seq));
          }
        });
        cursor = rows[rows.length - 1]!.seq;
        if (io.res.writableNeedDrain) await once(io.res, 'drain', { signal: io.signal }).catch(() => undefined);
        if (rows.length === STREAM_PAGE) continue;
      }
      if (dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => (clearTimeout(timer), resolve());
        if (io.signal.aborted) wake();
      });
      wake = undefined;
    }
  } finally {
    off();
    io.signal.removeEventListener('abort', onAbort);
    if (!io.res.writableEnded) io.res.end();
  }
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && v > 0 ? v : undefined;
}
