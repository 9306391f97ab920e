// Webhook endpoints of a group: create (the signing secret is shown in that answer and
// after a rotation, never again), list, get, update, delete, rotate the secret; the
// attempts made to an endpoint; and resending an event (a new delivery, sent by the
// next delivery pass). Deliveries themselves are made by the event log's trigger and
// sent by delivery.ts.
import { randomBytes } from 'node:crypto';
import type { GroupContext } from '../context.js';
import type { Executor } from '../../store/db.js';
import { unitOfWork } from '../unit-of-work.js';
import { requireGroup } from '../groups/groups.js';
import { getEvent } from '../events/events.js';
import { nudgeDelivery } from './delivery.js';
import { SECRET_GRACE_MS } from './signing.js';
import { webhookSendRepo } from '../../store/repositories/webhook-sends.js';
import { attemptRepo, deliveryRepo, webhookEndpointRepo, type AttemptRow, type WebhookEndpointRow } from '../../store/repositories/webhooks.js';
import {
  createWebhookEndpointSchema,
  ENDPOINTS_PER_GROUP_MAX,
  resendEventSchema,
  takes,
  updateWebhookEndpointSchema,
  webhookAttemptListQuerySchema,
  webhookEndpointListQuerySchema,
  type ResendResult,
  type WebhookAttempt,
  type WebhookAttemptList,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '../../domain/webhooks.js';
import type { Permission } from '../../domain/permissions.js';
import { invalidRequest, notFound, parseOrThrow } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { uuid } from '../../domain/strings.js';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function toEndpoint(row: WebhookEndpointRow, opts: { withSecret?: boolean } = {}): WebhookEndpoint {
  return {
    id: row.id,
    group_id: row.group_id,
    url: row.url,
    description: row.description,
    enabled_events: JSON.parse(row.enabled_events) as string[],
    disabled: row.disabled === 1,
    ...(opts.withSecret ? { secret: row.secret } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toAttempt(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    status: row.status,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    latency_ms: row.latency_ms,
    scheduled_at: row.scheduled_at,
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
  };
}

async function requireEndpoint(ctx: GroupContext, id: string, ex: Executor = ctx.store): Promise<WebhookEndpointRow> {
  const row = uuid.safeParse(id).success ? await webhookEndpointRepo.find(ex, ctx.group, id) : undefined;
  if (!row) throw notFound('webhook endpoint');
  return row;
}

export async function createWebhookEndpoint(ctx: GroupContext, body: unknown): Promise<WebhookEndpoint> {
  const input = parseOrThrow(createWebhookEndpointSchema, body);
  await requireGroup(ctx.store, ctx.group);
  const now = ctx.clock.nowIso();
  const row: WebhookEndpointRow = {
    id: newId(),
    group_id: ctx.group,
    url: input.url,
    description: input.description ?? null,
    enabled_events: JSON.stringify(input.enabled_events),
    disabled: input.disabled ? 1 : 0,
    secret: newWebhookSecret(),
    created_at: now,
    updated_at: now,
  };
  return unitOfWork(ctx, async ({ tx }) => {
    if ((await webhookEndpointRepo.count(tx, ctx.group)) >= ENDPOINTS_PER_GROUP_MAX) {
      throw invalidRequest(`a group has at most ${ENDPOINTS_PER_GROUP_MAX} webhook endpoints: delete one first`);
    }
    await webhookEndpointRepo.insert(tx, row);
    return toEndpoint(row, { withSecret: true });
  });
}

export async function listWebhookEndpoints(ctx: GroupContext, query: unknown): Promise<WebhookEndpointList> {
  const q = parseOrThrow(webhookEndpointListQuerySchema, query);
  const rows = await webhookEndpointRepo.list(ctx.store, ctx.group, q.limit + 1, q.starting_after);
  return { data: { items: rows.slice(0, q.limit).map((r) => toEndpoint(r)), has_more: rows.length > q.limit } };
}

export async function getWebhookEndpoint(ctx: GroupContext, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(await requireEndpoint(ctx, id));
}

export async function updateWebhookEndpoint(ctx: GroupContext, id: string, body: unknown): Promise<WebhookEndpoint> {
  const input = parseOrThrow(updateWebhookEndpointSchema, body);
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await requireEndpoint(ctx, id, tx);
    const next: WebhookEndpointRow = {
      ...row,
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled_events !== undefined ? { enabled_events: JSON.stringify(input.enabled_events) } : {}),
      ...(input.disabled !== undefined ? { disabled: input.disabled ? 1 : 0 } : {}),
      updated_at: ctx.clock.nowIso(),
    };
    await webhookEndpointRepo.update(tx, next);
    return toEndpoint(next);
  });
}

/**
 * A new secret, in the answer only: deliveries from now on are signed with it and, for
 * SECRET_GRACE_MS on the group's clock, with the secret it replaced as well.
 */
export async function rotateWebhookSecret(ctx: GroupContext, id: string): Promise<WebhookEndpoint> {
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await requireEndpoint(ctx, id, tx);
    const next = { ...row, secret: newWebhookSecret(), updated_at: ctx.clock.nowIso() };
    await webhookEndpointRepo.update(tx, next);
    await webhookSendRepo.retireSecret(tx, ctx.group, id, row.secret, new Date(ctx.clock.now().getTime() + SECRET_GRACE_MS).toISOString());
    return toEndpoint(next, { withSecret: true });
  });
}

/** Delete an endpoint with its waiting deliveries and its attempts. */
export async function deleteWebhookEndpoint(ctx: GroupContext, id: string): Promise<{ id: string; deleted: true }> {
  return unitOfWork(ctx, async ({ tx }) => {
    await requireEndpoint(ctx, id, tx);
    await webhookEndpointRepo.delete(tx, ctx.group, id);
    return { id, deleted: true as const };
  });
}

/** The attempts made to an endpoint, newest first. */
export async function listWebhookAttempts(ctx: GroupContext, id: string, query: unknown): Promise<WebhookAttemptList> {
  const q = parseOrThrow(webhookAttemptListQuerySchema, query);
  await requireEndpoint(ctx, id);
  const rows = await attemptRepo.list(ctx.store, ctx.group, id, q.limit + 1, q.starting_after);
  return { data: { items: rows.slice(0, q.limit).map(toAttempt), has_more: rows.length > q.limit } };
}

/**
 * Queue the event again: to one endpoint (subscribed to its type or not), or to every
 * enabled endpoint that takes its type. Each gets a new delivery, due now, with the
 * whole retry schedule ahead of it.
 */
export async function resendEvent(ctx: GroupContext, permissions: readonly Permission[], eventId: string, body: unknown): Promise<ResendResult> {
  const input = parseOrThrow(resendEventSchema, body ?? {});
  const event = await getEvent(ctx, permissions, eventId);
  const result = await unitOfWork(ctx, async ({ tx }) => {
    let endpointIds: string[];
    if (input.endpoint_id !== undefined) {
      const endpoint = await webhookEndpointRepo.find(tx, ctx.group, input.endpoint_id);
      if (!endpoint) throw notFound('webhook endpoint');
      endpointIds = [endpoint.id];
    } else {
      const enabled = await webhookEndpointRepo.enabled(tx, ctx.group);
      endpointIds = enabled.filter((e) => takes(JSON.parse(e.enabled_events) as string[], event.type)).map((e) => e.id);
    }
    const at = ctx.clock.nowIso();
    for (const endpointId of endpointIds) await deliveryRepo.insert(tx, ctx.group, endpointId, event.id, at);
    return { event_id: event.id, endpoint_ids: endpointIds };
  });
  if (result.endpoint_ids.length > 0) nudgeDelivery(ctx.store, ctx.group, ctx.clock);
  return result;
}
