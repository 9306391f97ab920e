// The event catalog: every event type, the API object it carries (the same zod schema
// the API answers with), the permissions that may read it, and the event envelope. The
// list API, the OpenAPI `webhooks` section and the tests all read this one table.
import { exactIntSchema } from './money.js';
import { instantSchema } from './time.js';
import { z } from 'zod';
import { transactionSchema } from './transactions.js';
import { customerCardSchema, customerSchema } from './customers.js';
import { planSchema, subscriptionSchema } from './recurring/resources.js';
import { invoiceSchema, productSchema } from './catalog.js';
import { paymentLinkSchema } from './payment-links.js';
import { signupEntryResultSchema } from './onboarding/response.js';
import { timestamp, uuid } from './strings.js';
import { pageLimit } from './paging.js';
import { waitQuery } from './waiting.js';
import type { Permission } from './permissions.js';

/** A settlement batch as events carry it (the API has no batch resource of its own). */
export const settlementBatchSchema = z
  .object({
    id: z.string(),
    group_id: z.string(),
    cutoff_at: timestamp,
    transaction_count: z.number().int(),
    total_amount: exactIntSchema.describe('Σ captured_amount of the batch, in cents; exact at any size'),
    created_at: timestamp,
  })
  .meta({ id: 'SettlementBatch' });

const TRANSACTIONS: Permission[] = ['view_transactions', 'manage_transactions'];

interface Family {
  object: z.ZodType;
  /** Keys without manage_webhooks read a family's events with one of these. */
  readers: Permission[];
  actions: readonly string[];
}

const FAMILIES = {
  transaction: { object: transactionSchema, readers: TRANSACTIONS, actions: ['approved', 'declined', 'captured', 'voided', 'refunded', 'settled', 'expired'] },
  settlement_batch: { object: settlementBatchSchema, readers: TRANSACTIONS, actions: ['closed'] },
  customer: { object: customerSchema, readers: ['manage_customers'], actions: ['created'] },
  card: { object: customerCardSchema, readers: ['manage_customers'], actions: ['added'] },
  plan: { object: planSchema, readers: ['manage_transactions'], actions: ['created', 'updated'] },
  subscription: {
    object: subscriptionSchema,
    readers: ['manage_transactions'],
    actions: ['created', 'updated', 'charged', 'payment_failed', 'completed', 'canceled'],
  },
  product: { object: productSchema, readers: ['manage_products'], actions: ['created', 'updated'] },
  invoice: { object: invoiceSchema, readers: ['manage_invoices', 'view_invoices'], actions: ['created', 'updated', 'archived', 'paid', 'past_due'] },
  payment_link: { object: paymentLinkSchema, readers: ['manage_transactions'], actions: ['created', 'paid'] },
  signup_entry: { object: signupEntryResultSchema, readers: ['manage_customers'], actions: ['created'] },
} satisfies Record<string, Family>;

export type EventFamily = keyof typeof FAMILIES;
type ActionOf<F extends EventFamily> = (typeof FAMILIES)[F]['actions'][number];
export type EventType = { [F in EventFamily]: `${F}.${ActionOf<F>}` }[EventFamily];
/** The API object an event of family F carries. */
export type EventObject<F extends EventFamily> = z.output<(typeof FAMILIES)[F]['object']>;

export const EVENT_FAMILIES = Object.keys(FAMILIES) as EventFamily[];

export const EVENT_TYPES = (Object.entries(FAMILIES) as [EventFamily, Family][]).flatMap(([f, d]) =>
  d.actions.map((a) => `${f}.${a}` as EventType),
);

export function familyOf(type: string): EventFamily {
  return type.slice(0, type.indexOf('.')) as EventFamily;
}

/** Whether a key with `permissions` may read events of `type`. */
export function mayRead(permissions: readonly Permission[], type: string): boolean {
  if (permissions.includes('manage_webhooks')) return true;
  const family = FAMILIES[familyOf(type)] as Family | undefined;
  return !!family && family.readers.some((p) => permissions.includes(p));
}

/** The envelope of every event; `object` is the API resource (same schema as the API's answer). */
export function eventSchemaOf(type: EventType) {
  const object = FAMILIES[familyOf(type)].object;
  const updated = type.endsWith('.updated');
  return z
    .object({
      id: uuid.meta({ description: 'UUID v7, ordered by creation' }),
      type: z.literal(type),
      created_at: timestamp.meta({ description: "the group's time when the change was committed" }),
      group_id: z.string(),
      data: z.object({
        object,
        ...(updated ? { previous_attributes: z.record(z.string(), z.unknown()).meta({ description: 'the changed fields, with their values before' }) } : {}),
      }),
      request: z
        .object({ id: z.string(), idempotency_key: z.string().nullable() })
        .nullable()
        .meta({ description: 'the API request that made the change; null for work done by the clock (settlement, billing, expiry, past due)' }),
    })
    .meta({ id: `Event_${type.replace('.', '_')}` });
}

/** Any event (the list and get answers). */
export const eventSchema = z
  .object({
    id: uuid,
    type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
    created_at: timestamp,
    group_id: z.string(),
    data: z.object({ object: z.record(z.string(), z.unknown()), previous_attributes: z.record(z.string(), z.unknown()).optional() }),
    request: z.object({ id: z.string(), idempotency_key: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'Event' });
export type Event = z.output<typeof eventSchema>;

/** The id of the object an event carries. */
export function objectId(e: Pick<Event, 'data'>): string {
  const id = (e.data.object as { id?: unknown }).id;
  return typeof id === 'string' ? id : '';
}

export const eventListSchema = z
  .object({ data: z.object({ items: z.array(eventSchema), has_more: z.boolean() }) })
  .meta({ id: 'EventList' });
export type EventList = z.output<typeof eventListSchema>;

/** A type filter: exact types or `family.*` wildcards (or `*`), comma separated. */
export const typePattern = z.string().refine((p) => p === '*' || (p.endsWith('.*') ? p.slice(0, -2) in FAMILIES : (EVENT_TYPES as string[]).includes(p)), {
  error: (i) => `"${String(i.input)}" is not an event type or a wildcard like transaction.* (types: ${EVENT_TYPES.join(', ')})`,
});
/** Comma separated (`types=a,b`) or repeated (`types=a&types=b`). */
export const typePatterns = z
  .union([z.string().max(5000), z.array(z.string().max(500)).max(100)])
  .transform((v) => (Array.isArray(v) ? v.join(',') : v).split(',').map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(typePattern).min(1, { error: 'must name at least one event type' }).max(100, { error: 'at most 100 types' }));

/** Whether `type` matches one of `patterns` (exact, `family.*` or `*`). */
export function matchesTypes(patterns: readonly string[], type: string): boolean {
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}

/** created_from / created_to: RFC 3339 or a date (midnight UTC), in the fixed-width UTC form events are stored in. */
const isoInstant = instantSchema({ date: true });

export const eventListQuerySchema = z.strictObject({
  types: typePatterns.optional(),
  created_from: isoInstant.optional(),
  created_to: isoInstant.optional(),
  limit: pageLimit,
  starting_after: uuid.optional().meta({ description: 'an event id: answer the events older than it' }),
  ...waitQuery,
});
export type EventListQuery = z.output<typeof eventListQuerySchema>;

/** A stream position: the `id:` of a streamed message (the event's place in the log), or an event id. */
export const streamCursor = z
  .string()
  .max(100)
  .refine((s) => /^\d{1,15}$/.test(s) || uuid.safeParse(s).success, { error: 'must be the id: of a message of this stream (a whole number) or an event id' });

export const eventStreamQuerySchema = z.strictObject({
  types: typePatterns.optional().meta({ description: 'only these types (exact, or wildcards like `transaction.*`); every type when absent' }),
  last_event_id: streamCursor
    .optional()
    .meta({ description: 'start after this position, as the Last-Event-ID header does (which wins when both are sent); for clients that cannot set headers' }),
});
export type EventStreamQuery = z.output<typeof eventStreamQuerySchema>;

/** The first message of a stream: its position, so a client that reconnects before any event still resumes from there. */
export const streamReadySchema = z
  .object({
    last_event_id: z.string().meta({ description: 'the position the stream starts after (also the `id:` of this message)' }),
    types: z.array(z.string()).meta({ description: 'the type filter in force' }),
  })
  .meta({ id: 'EventStreamReady' });
export type StreamReady = z.output<typeof streamReadySchema>;

/** The fields of `before` whose value differs in `after` (timestamps of the change itself excluded). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(before)) {
    if (k === 'updated_at') continue;
    // Compared as the API answers them (JSON text), not a column: a field is changed when its answer differs.
    if (JSON.stringify(v) !== JSON.stringify(after[k])) out[k] = v;
  }
  return out;
}
