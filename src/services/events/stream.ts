// The live event stream (Server-Sent Events): a group's events in log order, from a
// position on. Each message's `id:` is the event's place in the log (`seq`, commit
// order across processes), so a client that reconnects with Last-Event-ID resumes
// exactly after the last event it received: nothing is lost and nothing repeated.
//
// One feed per database and group, shared by every connection of this process that
// follows that group: it polls the log (events written by any process on the database)
// and wakes at once on the nudge (this process's commits, and on PostgreSQL every
// server's, through LISTEN/NOTIFY), reads each new page once, serializes each
// event once, and hands the page to its connections — so a hundred listeners cost one
// poll, not a hundred. A connection that starts behind the feed (a resume from an older
// Last-Event-ID) or falls behind it (a slow client: its queue is bounded) reads the log
// itself from its position until it has caught up, then follows the feed again. This
// module hands out the events (eventFeed); the wire — the SSE framing, heartbeats, the
// response head, waiting for a slow socket — is src/http/sse.ts's.
import type { z } from 'zod';
import type { GroupContext } from '../context.js';
import type { SequencedEvent } from '../../store/interfaces/events.js';
import { eventStreamQuerySchema, matchesTypes, streamCursor, type StreamReady } from '../../domain/events.js';
import { validationError } from '../../errors.js';
import { useCase } from '../use-case.js';
import type { Platform } from '../platform.js';
import { stringifyJson } from '../../lib/exact-json.js';
import { toEvent } from './events.js';
import { onEventsCommitted } from './nudge.js';
import { storeWatch } from '../store-watch.js';
import { telemetry } from '../telemetry.js';

/** Events sent per read of the log (a client far behind catches up page by page). */
export const STREAM_PAGE = 500;
/** How often a stream looks for events other processes committed (server setting `eventStreamPollMs`). */
export const STREAM_POLL_MS = 250;
/** The same when the store announces every server's commits (the poll is then only a safety net). */
export const STREAM_POLL_NOTICED_MS = 5_000;

export interface StreamPlan {
  group: string;
  /** The position the stream starts after. */
  after: number;
  types: string[];
}

/**
 * The stream's input: its query and the Last-Event-ID header, named so (the HTTP adapter
 * adds the header to the query; a query parameter of that name cannot override it).
 */
const streamInput = eventStreamQuerySchema.extend({ 'Last-Event-ID': streamCursor.optional() });

export const openEventStream = useCase({ input: streamInput, run: open });

/**
 * Checks a stream request before its answer starts (so a bad one is a plain 400): the type
 * filter and where to start — after Last-Event-ID (or `last_event_id`), else after the
 * log's current end (only new events).
 */
async function open(p: Platform, ctx: GroupContext, input: z.output<typeof streamInput>): Promise<StreamPlan> {
  const header = input['Last-Event-ID'];
  const cursor = header ?? input.last_event_id;
  const end = await ctx.store.repos.events.lastSeq(ctx.store);
  let after = end;
  if (cursor !== undefined) {
    if (/^\d+$/.test(cursor)) {
      // A position past the end (a log that was reset) starts at the end.
      after = Math.min(Number(cursor), end);
    } else {
      const seq = await ctx.store.repos.events.seqOf(ctx.store, ctx.group, cursor);
      if (seq === undefined) {
        throw validationError([{ path: header !== undefined ? 'Last-Event-ID' : 'last_event_id', message: 'no event of this group has this id' }]);
      }
      after = seq;
    }
  }
  return { group: ctx.group, after, types: input.types ?? ['*'] };
}

/** Queued events past which a connection that does not keep up reads the log itself instead. */
const MAX_QUEUED = 4 * STREAM_PAGE;

interface Entry {
  seq: number;
  type: string;
  /** The event object as JSON (serialized once per feed). */
  json: string;
}

const entry = (row: SequencedEvent): Entry => ({ seq: row.seq, type: row.type, json: stringifyJson(toEvent(row)) });

interface Follower {
  /** Behind the feed: reading the log itself. */
  behind: boolean;
  queue: Entry[];
  wake(): void;
}

/** The shared reader of one group's log in one process (see the opening comment). */
class Feed {
  /** The position up to which the feed has read and handed out. */
  head: number;
  readonly followers = new Set<Follower>();
  private wakeLoop: (() => void) | undefined;
  private dirty = true;
  private readonly off: () => void;
  private stopped = false;

  constructor(
    private readonly store: GroupContext['store'],
    readonly group: string,
    start: number,
    private readonly pollMs: number,
    private readonly done: () => void,
  ) {
    this.head = start;
    this.off = onEventsCommitted(store, group, () => {
      this.dirty = true;
      this.wakeLoop?.();
    });
    void this.loop();
  }

  remove(f: Follower): void {
    this.followers.delete(f);
    if (this.followers.size === 0) {
      this.stopped = true;
      this.off();
      this.wakeLoop?.();
      this.done();
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.dirty = false;
      let rows: SequencedEvent[] = [];
      let end = this.head;
      try {
        // The log's end first: every event up to it was committed before the read below.
        const last = await this.store.repos.events.lastSeq(this.store);
        rows = await this.store.repos.events.after(this.store, this.group, this.head, STREAM_PAGE);
        end = last;
      } catch (err) {
        // A failed read (the database closing under a shutdown, a store outage: said once by
        // the store's watch) is tried again at the next poll.
        if (!this.stopped && !storeWatch(this.store).failed(err)) process.stderr.write(`event stream: reading the log failed: ${String(err)}\n`);
      }
      if (this.stopped) return;
      if (rows.length > 0) {
        const page = rows.map(entry);
        this.head = page[page.length - 1]!.seq;
        for (const f of this.followers) {
          if (f.behind) continue;
          for (const e of page) f.queue.push(e);
          // A connection that does not keep up: the log is its buffer, not this process's memory.
          if (f.queue.length > MAX_QUEUED) {
            f.behind = true;
            f.queue = [];
          }
          f.wake();
        }
        if (rows.length === STREAM_PAGE) continue;
      }
      // All of the group's events up to the end are handed out: the next read starts there, not at the
      // group's last event, so a quiet group's feed does not walk everyone else's events again each time.
      // (Positions are never reused, so nothing can later appear at or before the end.)
      if (end > this.head) this.head = end;
      if (this.dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wakeLoop = () => (clearTimeout(timer), resolve());
      });
      this.wakeLoop = undefined;
    }
  }
}

const feeds = new WeakMap<object, Map<string, Feed>>();

function feedFor(store: GroupContext['store'], group: string, start: number, pollMs: number): Feed {
  let byGroup = feeds.get(store);
  if (!byGroup) feeds.set(store, (byGroup = new Map()));
  let feed = byGroup.get(group);
  if (!feed) {
    const map = byGroup;
    feed = new Feed(store, group, start, pollMs, () => map.delete(group));
    map.set(group, feed);
  }
  return feed;
}

/** The feeds of `store` and their connections (tests: one per group however many connections). */
export function streamFeeds(store: object): Array<{ group: string; connections: number }> {
  return [...(feeds.get(store)?.values() ?? [])].map((f) => ({ group: f.group, connections: f.followers.size }));
}

/** What the feed hands a connection: first where it starts, then the events it wants, page by page. */
export type FeedItem =
  | { kind: 'ready'; ready: StreamReady; id: string }
  /** Events past the connection's position, of its types (JSON text, serialized once per feed); possibly none. */
  | { kind: 'events'; events: Array<{ id: string; type: string; json: string }> };

/**
 * One connection's events, from the plan's position on, until `signal` aborts (the client
 * went away, the server shuts down) or the consumer stops asking. The consumer takes each
 * item before the next is read, so a slow one holds only its own place (and falls behind
 * the shared feed, onto the log, when its queue is full). `pollMs`: the server's setting.
 */
export async function* eventFeed(ctx: GroupContext, plan: StreamPlan, o: { signal: AbortSignal; pollMs?: number }): AsyncGenerator<FeedItem, void, undefined> {
  const signal = o.signal;
  const pollMs = o.pollMs ?? (ctx.store.notices ? STREAM_POLL_NOTICED_MS : STREAM_POLL_MS);
  let wake: (() => void) | undefined;
  let woken = false;
  const follower: Follower = {
    behind: true,
    queue: [],
    wake: () => {
      woken = true;
      wake?.();
    },
  };
  const feed = feedFor(ctx.store, plan.group, plan.after, pollMs);
  feed.followers.add(follower);
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  telemetry.sseClients++;
  try {
    let cursor = plan.after;
    yield { kind: 'ready', ready: { last_event_id: String(cursor), types: plan.types }, id: String(cursor) };
    /** The events past the cursor, of the plan's types; the cursor moves past all of them once they are taken. */
    const send = async function* (entries: Entry[]): AsyncGenerator<FeedItem, void, undefined> {
      const wanted = entries.filter((e) => e.seq > cursor);
      if (wanted.length === 0) return;
      yield { kind: 'events', events: wanted.filter((e) => matchesTypes(plan.types, e.type)).map((e) => ({ id: String(e.seq), type: e.type, json: e.json })) };
      cursor = wanted[wanted.length - 1]!.seq;
    };
    while (!signal.aborted) {
      if (follower.behind) {
        // Everything the feed handed out so far ends at or before its head: at the head, follow it.
        if (cursor >= feed.head) {
          follower.behind = false;
          follower.queue = [];
          continue;
        }
        // Every event of the group up to the feed's head was committed before the head was known.
        const headBefore = feed.head;
        const rows = await readBehind(ctx.store, plan.group, cursor);
        if (signal.aborted) break;
        if (rows === undefined) {
          // The read failed (a store outage): tried again after a poll's wait, as the feed's
          // own read is; the connection stays open (its heartbeats go on), so a browser's
          // EventSource, which gives up on a stream that ends in an error, keeps it.
          await pause(pollMs, signal);
          continue;
        }
        yield* send(rows.map(entry));
        // A partial page is all there is up to headBefore (positions between are other groups').
        if (rows.length < STREAM_PAGE) cursor = Math.max(cursor, headBefore);
        continue;
      }
      if (follower.queue.length > 0) {
        const entries = follower.queue;
        follower.queue = [];
        yield* send(entries);
        continue;
      }
      woken = false;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (woken || signal.aborted || follower.queue.length > 0 || follower.behind) resolve();
      });
      wake = undefined;
    }
  } finally {
    telemetry.sseClients--;
    feed.remove(follower);
    signal.removeEventListener('abort', onAbort);
  }
}

/** The log after `cursor` for a connection behind its feed; undefined when the read failed (reported as the feed's are). */
async function readBehind(store: GroupContext['store'], group: string, cursor: number): Promise<SequencedEvent[] | undefined> {
  try {
    return await store.repos.events.after(store, group, cursor, STREAM_PAGE);
  } catch (err) {
    if (!storeWatch(store).failed(err)) process.stderr.write(`event stream: reading the log failed: ${String(err)}\n`);
    return undefined;
  }
}

/** Wait `ms`, or less if the connection closes. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => (clearTimeout(timer), signal.removeEventListener('abort', done), resolve());
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
