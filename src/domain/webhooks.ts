// Webhook endpoints and their delivery attempts: the request and resource schemas (one
// each, used by the routes, the CLI and the OpenAPI document) and the pure rules of
// delivery — which events an endpoint takes, the retry schedule, what counts as success.
import { z } from 'zod';
import { typePattern, typePatterns } from './events.js';
import { text, timestamp, uuid } from './strings.js';
import { pageLimit } from './paging.js';
import { waitQuery } from './waiting.js';

/** Delay before each attempt after the previous one failed (the first is immediate); after the last, the delivery has failed. */
export const RETRY_DELAYS_MS = [0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
/** An attempt gets this long to answer, completely; anything but a whole 2xx answer within it is a failure. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** What an attempt keeps of the response body. */
export const RESPONSE_BODY_MAX_BYTES = 1024;
/**
 * Attempts in flight to one endpoint at most (a process's deliveries are queued per
 * endpoint): a receiver that hangs holds this many of its own attempts, never another
 * endpoint's.
 */
export const ENDPOINT_CONCURRENCY = 16;

/**
 * What a receiver's answer may take, in bytes and time: receivers are untrusted (one
 * that answers forever must cost a bounded amount). Breaking one is a failed attempt
 * whose error names it, retried on the schedule like any failure.
 */
export const RECEIVER_LIMITS = {
  /** DNS, TCP and (https) the TLS handshake. */
  connectMs: 5_000,
  /** From sending to the answer's last byte (ATTEMPT_TIMEOUT_MS). */
  answerMs: ATTEMPT_TIMEOUT_MS,
  statusLineBytes: 1024,
  /** The status line and headers together, interim (1xx) heads included. */
  headBytes: 16 * 1024,
  /** Header lines of all heads together. */
  headerLines: 100,
  /** One chunk-size line (with its extensions). */
  chunkLineBytes: 1024,
  /** The trailer section of a chunked answer. */
  trailerBytes: 16 * 1024,
  trailerLines: 100,
  /** The body as sent (chunk framing counted): past it the answer is not read further. */
  bodyBytes: 64 * 1024,
  /** The start of the body kept with the attempt. */
  keptBodyBytes: RESPONSE_BODY_MAX_BYTES,
} as const;
export const ENDPOINTS_PER_GROUP_MAX = 100;

/**
 * When attempt `attempts + 1` is due after attempt `attempts` failed, counted from when
 * that attempt was due (a clock advance of days runs each retry that fell due in it);
 * undefined when the schedule is over.
 */
export function nextAttemptAt(attemptDueAt: string, attempts: number): string | undefined {
  const delay = RETRY_DELAYS_MS[attempts];
  if (delay === undefined) return undefined;
  return new Date(Date.parse(attemptDueAt) + delay).toISOString();
}

/** A 2xx is success; any other status (a 3xx too: redirects are not followed), a timeout, a broken bound or a network error is a failure. */
export const succeeded = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;


const webhookUrl = z
  .string({ error: 'is required and must be a string' })
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'must be an http:// or https:// URL (the receiver the events are POSTed to)' },
  )
  .meta({ format: 'uri', example: 'https://example.com/hooks/payctl' });

const enabledEvents = z
  .array(typePattern, { error: 'must be an array of event types, e.g. ["transaction.*", "invoice.paid"]' })
  .min(1, { error: 'must name at least one event type (or "*" for every type)' })
  .max(100, { error: 'at most 100 event types' })
  .transform((types) => [...new Set(types)])
  .meta({ description: 'event types to deliver: exact types, family wildcards like `transaction.*`, or `*`', example: ['transaction.*', 'invoice.paid'] });

const endpointDescription = text(500).nullable();

/** `url`: POSTed to the receiver at url; `collect`: kept in the group's inbox (GET /api/v1/sandboxes/{group_id}/inbox), signed the same way. */
export const webhookEndpointKind = z
  .enum(['url', 'collect'], { error: 'must be "url" (POST to a receiver) or "collect" (keep them in the inbox)' })
  .meta({ description: '`url` (default): deliveries are POSTed to `url`. `collect`: each delivery is kept, as it would have been sent, in the inbox of the group (GET /api/v1/sandboxes/{group_id}/inbox); such an endpoint has no `url`.' });
export type WebhookEndpointKind = z.output<typeof webhookEndpointKind>;

/** A url is required of a receiver and refused of a collector. */
const urlFitsKind = (b: { kind?: WebhookEndpointKind | undefined; url?: string | undefined }, ctx: z.RefinementCtx) => {
  if (b.kind === 'collect' && b.url !== undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'a collect endpoint has no url (its deliveries go to the inbox)' });
  if (b.kind !== 'collect' && b.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required (or "kind": "collect" to keep deliveries in the inbox)' });
};

export const createWebhookEndpointSchema = z
  .strictObject({
    kind: webhookEndpointKind.optional(),
    url: webhookUrl.optional(),
    enabled_events: enabledEvents,
    description: endpointDescription.optional(),
    disabled: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine(urlFitsKind)
  .meta({ id: 'CreateWebhookEndpointRequest' });
export type CreateWebhookEndpoint = z.output<typeof createWebhookEndpointSchema>;

/** The fields an update may change. */
export const updateWebhookEndpointFields = {
  url: webhookUrl.optional(),
  enabled_events: enabledEvents.optional(),
  description: endpointDescription.optional(),
  disabled: z.boolean({ error: 'must be true or false' }).optional(),
};
/** Whether an update names something to change (`keys`: the input's fields besides the endpoint's id). */
export const changesSomething = (keys: readonly string[]): boolean => keys.some((k) => k in updateWebhookEndpointFields);
export const NOTHING_TO_CHANGE = 'name at least one field to change: url, enabled_events, description, disabled';

export const updateWebhookEndpointSchema = z
  .strictObject(updateWebhookEndpointFields)
  .refine((b) => changesSomething(Object.keys(b)), { error: NOTHING_TO_CHANGE })
  .meta({ id: 'UpdateWebhookEndpointRequest', description: 'Only the fields given change.' });
export type UpdateWebhookEndpoint = z.output<typeof updateWebhookEndpointSchema>;

export const webhookEndpointSchema = z
  .object({
    id: uuid,
    group_id: z.string(),
    kind: webhookEndpointKind,
    url: z.string().meta({ description: 'the receiver; for a collect endpoint the path of its inbox' }),
    description: z.string().nullable(),
    enabled_events: z.array(z.string()),
    disabled: z.boolean().meta({ description: 'a disabled endpoint gets no new deliveries; its waiting retries resume when it is enabled again' }),
    secret: z
      .string()
      .optional()
      .meta({ description: 'the signing secret (`whsec_` + base64): only in the answers of create and rotate_secret, never again' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z
  .object({ data: z.object({ items: z.array(webhookEndpointSchema), has_more: z.boolean() }) })
  .meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.output<typeof webhookEndpointListSchema>;

export const deletedWebhookEndpointSchema = z
  .object({ id: uuid, deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookEndpoint' });

export const webhookEndpointListQuerySchema = z.strictObject({
  limit: pageLimit,
  starting_after: uuid.optional().meta({ description: 'an endpoint id: answer the endpoints created before it' }),
});
export type WebhookEndpointListQuery = z.output<typeof webhookEndpointListQuerySchema>;

export const webhookAttemptSchema = z
  .object({
    id: uuid,
    endpoint_id: uuid,
    event_id: uuid,
    event_type: z.string(),
    attempt: z.number().int().meta({ description: 'which attempt of this delivery (1 is the first; a resend starts a new delivery)' }),
    status: z.enum(['succeeded', 'failed', 'held']).meta({ description: 'held: a fault of the endpoint (delay, reorder) held the attempt back; nothing was sent' }),
    response_status: z.number().int().nullable().meta({ description: "the receiver's HTTP status; null when it never answered" }),
    response_body: z.string().nullable().meta({ description: 'the first 1 KiB of the response body' }),
    error: z.string().nullable().meta({ description: 'why the attempt failed (timeout, connection refused, a non-2xx status)' }),
    latency_ms: z.number().int(),
    scheduled_at: timestamp.meta({ description: "when the attempt fell due, on the group's clock" }),
    next_attempt_at: timestamp.nullable().meta({ description: "when the next attempt is due (group clock); null after a success or the last attempt" }),
    created_at: timestamp.meta({ description: "when the attempt was sent, on the group's clock" }),
    fault: z.string().nullable().meta({ description: 'the fault a rule of the endpoint injected (docs/faults.md): `drop; rule=<id>; call=<n>`, null for none' }),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.output<typeof webhookAttemptSchema>;

export const webhookAttemptListSchema = z
  .object({ data: z.object({ items: z.array(webhookAttemptSchema), has_more: z.boolean() }) })
  .meta({ id: 'WebhookAttemptList' });
export type WebhookAttemptList = z.output<typeof webhookAttemptListSchema>;

export const webhookAttemptListQuerySchema = z.strictObject({
  limit: pageLimit,
  starting_after: uuid.optional().meta({ description: 'an attempt id: answer the attempts older than it' }),
  ...waitQuery,
});

export const resendEventSchema = z
  .strictObject({ endpoint_id: uuid.optional().meta({ description: 'only this endpoint (it need not be subscribed to the type); default: every enabled endpoint that takes the type' }) })
  .meta({ id: 'ResendEventRequest' });

export const resendResultSchema = z
  .object({ event_id: uuid, endpoint_ids: z.array(uuid).meta({ description: 'the endpoints a new delivery was queued for' }) })
  .meta({ id: 'ResendEventResult' });
export type ResendResult = z.output<typeof resendResultSchema>;

/** A delivery a collect endpoint kept (the inbox): exactly what a receiver would have got. */
export const inboxMessageSchema = z
  .object({
    id: uuid,
    endpoint_id: uuid.meta({ description: 'the collect endpoint' }),
    event_id: uuid,
    event_type: z.string(),
    received_at: timestamp.meta({ description: "when it was delivered, on the group's clock" }),
    headers: z
      .object({
        'content-type': z.literal('application/json'),
        'webhook-id': z.string(),
        'webhook-timestamp': z.string().meta({ description: 'Unix seconds, real time (receivers check it against their own clock)' }),
        'webhook-signature': z.string().meta({ description: '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space separated' }),
      })
      .meta({ description: 'the headers the POST would have carried (Standard Webhooks)' }),
    body: z.string().meta({ description: 'the raw body, byte for byte what a receiver would have got: verify the signature over this text, then parse it' }),
  })
  .meta({ id: 'InboxMessage' });
export type InboxMessage = z.output<typeof inboxMessageSchema>;

export const inboxListSchema = z
  .object({ data: z.object({ items: z.array(inboxMessageSchema), has_more: z.boolean() }) })
  .meta({ id: 'InboxMessageList' });
export type InboxList = z.output<typeof inboxListSchema>;

export const inboxQuerySchema = z.strictObject({
  types: typePatterns.optional().meta({ description: 'only these event types (exact, or wildcards like `transaction.*`), comma separated' }),
  limit: pageLimit,
  starting_after: uuid.optional().meta({ description: 'a message id: answer the messages older than it' }),
  ...waitQuery,
});
