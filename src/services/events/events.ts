// The event log: events become rows in the transaction of the change that caused them
// (the unit of work appends what its use case emitted; clock-driven work appends
// through its own write), and the API reads them back. Payloads are built here only,
// from the API objects the services' mappers produce, so an event's `data.object` is
// what the API answers for that object (masked the same way).
import { z } from 'zod';
import type { Tx } from '../../store/interfaces/db.js';
import type { GroupContext, RequestContext } from '../context.js';
import type { EventEntity } from '../../store/interfaces/events.js';
import {
  changedFields,
  EVENT_FAMILIES,
  familyOf,
  mayRead,
  eventListQuerySchema,
  type Event,
  type EventFamily,
  type EventList,
  type EventObject,
  type EventType,
} from '../../domain/events.js';
import type { Permission } from '../../domain/permissions.js';
import { newId } from '../../lib/ids.js';
import { notFound } from '../../errors.js';
import { useCase } from '../use-case.js';
import type { Platform } from '../platform.js';
import { uuid } from '../../domain/strings.js';
import { nudgeAfterCommit, onEventsCommitted } from './nudge.js';
import { longPoll } from '../long-poll.js';
import { waitPlan } from '../../domain/waiting.js';
import { nudgeDelivery } from '../webhooks/delivery-loop.js';
import { redactText } from '../../domain/sensitive.js';

/** Something that happened, recorded with the change that made it happen. */
export interface PendingEvent {
  type: string;
  data: unknown;
  /** For work done for a group other than the context's (a public page acts for the object's group): its group and time; `at` alone: the instant of the change it records. */
  group?: string;
  at?: string;
}

export interface EventData {
  object: unknown;
  previous_attributes?: Record<string, unknown>;
}

/** An event for a unit of work to emit: `object` is the API resource after the change. */
export function event<T extends EventType>(type: T, object: EventObject<FamilyOfType<T>>): PendingEvent {
  return { type, data: { object } satisfies EventData };
}

/** An event of work done for `ctx`'s group inside a unit of work of another context (public pages). */
export function forGroup(e: PendingEvent, ctx: GroupContext): PendingEvent {
  return { ...e, group: ctx.group, at: ctx.clock.nowIso() };
}

/** The event of a charge: approved, or declined by the processor. */
export function chargeEvent(txn: EventObject<'transaction'>): PendingEvent {
  // At the charge's own instant: the write's later statements take time (more on a
  // networked store), and a window that holds the transaction must hold its event.
  return { ...event(txn.status === 'declined' ? 'transaction.declined' : 'transaction.approved', txn), at: txn.created_at };
}

/** A `*.updated` event: `previous_attributes` holds the fields that changed, with their old values. */
export function updatedEvent<T extends EventType & `${string}.updated`>(type: T, before: EventObject<FamilyOfType<T>>, after: EventObject<FamilyOfType<T>>): PendingEvent | undefined {
  const previous = changedFields(before as Record<string, unknown>, after as Record<string, unknown>);
  if (Object.keys(previous).length === 0) return undefined;
  return { type, data: { object: after, previous_attributes: previous } satisfies EventData };
}

type FamilyOfType<T extends string> = T extends `${infer F}.${string}` ? (F extends EventFamily ? F : never) : never;

/** Append a unit of work's events (in its transaction), stamped with its group's time and request. */
export function appendEvents(tx: Tx, ctx: RequestContext, events: readonly PendingEvent[]): void {
  if (events.length === 0) return;
  const at = ctx.clock.nowIso();
  const groups = new Set<string>();
  for (const e of events) {
    const groupId = e.group ?? ctx.group;
    if (groupId === undefined) throw new Error(`event ${e.type} needs the group it belongs to`);
    insert(tx, { groupId, at: e.at ?? at, type: e.type, data: e.data, request: ctx.request });
    groups.add(groupId);
  }
  // Their webhook deliveries were made with them (a trigger); a serving process sends them once committed.
  tx.afterCommit(() => {
    for (const g of groups) nudgeDelivery(ctx.store, g, g === ctx.group ? ctx.clock : undefined);
  });
}

/**
 * Append an event of work the clock did (settlement, billing, expiry, past due): no
 * request. Its deliveries are sent by the scheduler's webhook job, which runs after the
 * job that appended it.
 */
export function appendClockEvent(tx: Tx, groupId: string, at: string, e: PendingEvent): void {
  insert(tx, { groupId, at, type: e.type, data: e.data, request: null });
}

function insert(tx: Tx, e: { groupId: string; at: string; type: string; data: unknown; request: { id: string; idempotency_key?: string } | null }) {
  tx.repos.events.insert(tx, {
    id: newId(),
    group_id: e.groupId,
    type: e.type,
    created_at: e.at,
    request_id: e.request?.id ?? null,
    // A key is the client's own text: a card number or a secret typed into it is taken out (domain/sensitive.ts).
    idempotency_key: e.request?.idempotency_key === undefined ? null : redactText(e.request.idempotency_key),
    data: e.data,
  });
  nudgeAfterCommit(tx, e.groupId);
}

export function toEvent(row: EventEntity): Event {
  return {
    id: row.id,
    type: row.type as EventType,
    created_at: row.created_at,
    group_id: row.group_id,
    data: row.data as Event['data'],
    request: row.request_id === null ? null : { id: row.request_id, idempotency_key: row.idempotency_key },
  };
}

/** GET …/events: newest first, of the types asked for that the caller may read, a page after `starting_after`; with `wait`, once `count` exist (long-poll.ts). */
export const listEvents = useCase({
  input: eventListQuerySchema,
  async run(p: Platform, ctx: GroupContext, q, io): Promise<EventList> {
    const { waitMs, count } = waitPlan(q);
    const patterns = readablePatterns(ctx.permissions, q.types ?? ['*']);
    if (patterns.length === 0) return { data: { items: [], has_more: false } };
    const all = patterns.includes('*');
    const read = async (): Promise<EventList> => {
      const events = await ctx.store.repos.events.list(ctx.store, {
        groupId: ctx.group,
        ...(all
          ? {}
          : { types: patterns.filter((x) => !x.endsWith('.*')), prefixes: patterns.filter((x) => x.endsWith('.*')).map((x) => x.slice(0, -1)) }),
        ...(q.created_from ? { createdFrom: q.created_from } : {}),
        ...(q.created_to ? { createdTo: q.created_to } : {}),
        ...(q.starting_after ? { before: q.starting_after } : {}),
        limit: q.limit + 1,
      });
      return { data: { items: events.slice(0, q.limit).map(toEvent), has_more: events.length > q.limit } };
    };
    return longPoll({
      waitMs,
      count,
      signal: io.signal,
      read,
      size: (page) => page.data.items.length,
      wake: (notify) => onEventsCommitted(ctx.store, ctx.group, notify),
      share: { store: ctx.store, key: ['events', ctx.group, patterns, q.created_from, q.created_to, q.starting_after, q.limit] },
    });
  },
});

/** Calls `notify` whenever the group's events were committed (the dashboard's live page); the answer subscribes and returns the unsubscribe. */
export const watchEvents = useCase({
  input: z.object({}),
  run: async (p: Platform, ctx: GroupContext) => (notify: () => void): (() => void) => onEventsCommitted(ctx.store, ctx.group, notify),
});

/** The patterns narrowed to what a key may read: `*` becomes the readable families' wildcards. */
function readablePatterns(permissions: readonly Permission[], patterns: readonly string[]): string[] {
  if (permissions.includes('manage_webhooks')) return [...patterns];
  const families = EVENT_FAMILIES.filter((f) => mayRead(permissions, `${f}.*`));
  return patterns.flatMap((p) => (p === '*' ? families.map((f) => `${f}.*`) : mayRead(permissions, p) ? [p] : []));
}

/** An event of the group that the caller may read; one it may not is not found (its existence is not told). */
export async function requireEvent(ctx: GroupContext, id: string): Promise<Event> {
  if (!uuid.safeParse(id).success) throw notFound('event');
  const found = await ctx.store.repos.events.find(ctx.store, ctx.group, id);
  if (!found || !mayRead(ctx.permissions, found.type)) throw notFound('event');
  return toEvent(found);
}

/** GET …/events/{id}. */
export const getEvent = useCase({
  input: z.object({ event_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, input): Promise<Event> => requireEvent(ctx, input.event_id),
});

export { familyOf };
