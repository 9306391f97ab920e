// Webhook endpoints of a group: create (the signing secret is shown in that answer and
// after a rotation, never again), list, get, update, delete, rotate the secret; the
// attempts made to an endpoint; and resending an event (a new delivery, sent by the
// next delivery pass). Deliveries themselves are made by the event log's trigger and
// sent by delivery.ts.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import type { Executor, Tx } from '../../store/interfaces/db.js';
import { newId } from '../../lib/ids.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import { newInGroup } from '../groups/groups.js';
import { requireEvent } from '../events/events.js';
import { matchesTypes } from '../../domain/events.js';
import { nudgeDelivery } from './delivery-loop.js';
import { SECRET_GRACE_MS } from './signing.js';
import { onAttemptsRecorded } from './recorded.js';
import { longPoll } from '../long-poll.js';
import { waitPlan } from '../../domain/waiting.js';
import { deliveryClock } from '../clock/clock.js';
import type { WebhookAttemptEntity, WebhookEndpointEntity } from '../../store/interfaces/webhooks.js';
import {
  changesSomething,
  createWebhookEndpointSchema,
  ENDPOINTS_PER_GROUP_MAX,
  NOTHING_TO_CHANGE,
  resendEventSchema,
  updateWebhookEndpointFields,
  webhookAttemptListQuerySchema,
  webhookEndpointListQuerySchema,
  type ResendResult,
  type WebhookAttempt,
  type WebhookAttemptList,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '../../domain/webhooks.js';
import { invalidRequest, notFound, validationError } from '../../errors.js';
import { uuid } from '../../domain/strings.js';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Where a collector's deliveries are read: its group's inbox (docs/testing.md). */
export const inboxPath = (groupId: string): string => `/api/v1/sandboxes/${groupId}/inbox`;

export function toEndpoint(e: WebhookEndpointEntity, opts: { withSecret?: boolean } = {}): WebhookEndpoint {
  return {
    id: e.id,
    group_id: e.group_id,
    kind: e.kind,
    url: e.kind === 'collect' ? inboxPath(e.group_id) : e.url,
    description: e.description,
    enabled_events: e.enabled_events,
    disabled: e.disabled,
    ...(opts.withSecret ? { secret: e.secret } : {}),
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

export function toAttempt(a: WebhookAttemptEntity): WebhookAttempt {
  return {
    id: a.id,
    endpoint_id: a.endpoint_id,
    event_id: a.event_id,
    event_type: a.event_type,
    attempt: a.attempt,
    status: a.status,
    response_status: a.response_status,
    response_body: a.response_body,
    error: a.error,
    latency_ms: a.latency_ms,
    scheduled_at: a.scheduled_at,
    next_attempt_at: a.next_attempt_at,
    created_at: a.created_at,
    fault: a.fault ?? null,
  };
}

async function requireEndpoint(ctx: GroupContext, id: string, ex: Executor = ctx.store): Promise<WebhookEndpointEntity> {
  const endpoint = uuid.safeParse(id).success ? await ex.repos.webhookEndpoints.find(ex, ctx.group, id) : undefined;
  if (!endpoint) throw notFound('webhook endpoint');
  return endpoint;
}

const endpointId = z.object({ endpoint_id: z.string() });

export const createWebhookEndpoint = useCase({
  input: createWebhookEndpointSchema,
  async run(p: Platform, ctx: GroupContext, input): Promise<WebhookEndpoint> {
    const endpoint: WebhookEndpointEntity = await newInGroup(ctx, {
      kind: input.kind ?? 'url',
      url: input.url ?? '',
      description: input.description ?? null,
      enabled_events: input.enabled_events,
      disabled: input.disabled ?? false,
      secret: newWebhookSecret(),
    });
    return unitOfWork(ctx, async ({ tx }) => {
      if ((await tx.repos.webhookEndpoints.count(tx, ctx.group)) >= ENDPOINTS_PER_GROUP_MAX) {
        throw invalidRequest(`a group has at most ${ENDPOINTS_PER_GROUP_MAX} webhook endpoints: delete one first`);
      }
      await tx.repos.webhookEndpoints.insert(tx, endpoint);
      return toEndpoint(endpoint, { withSecret: true });
    });
  },
});

/** A new collect endpoint of `groupId` (a sandbox made with webhooks "collect", or the fork of one), in the caller's write: its id and secret. */
export async function addCollector(tx: Tx, groupId: string, at: string, from?: Pick<WebhookEndpointEntity, 'enabled_events' | 'description' | 'disabled'>): Promise<{ id: string; secret: string }> {
  const endpoint: WebhookEndpointEntity = {
    id: newId(),
    group_id: groupId,
    kind: 'collect',
    url: '',
    description: from?.description ?? null,
    enabled_events: from?.enabled_events ?? ['*'],
    disabled: from?.disabled ?? false,
    secret: newWebhookSecret(),
    created_at: at,
    updated_at: at,
  };
  await tx.repos.webhookEndpoints.insert(tx, endpoint);
  return { id: endpoint.id, secret: endpoint.secret };
}

/** A fork's collectors: one for each of the source's (new secrets), so the fork's webhooks are collected too; the first's id and secret. */
export async function copyCollectors(tx: Tx, sourceId: string, forkId: string, at: string): Promise<{ id: string; secret: string } | undefined> {
  const source = (await tx.repos.webhookEndpoints.list(tx, sourceId, { limit: ENDPOINTS_PER_GROUP_MAX })).filter((e) => e.kind === 'collect').reverse();
  let first: { id: string; secret: string } | undefined;
  for (const e of source) {
    const made = await addCollector(tx, forkId, at, e);
    first ??= made;
  }
  return first;
}

export const listWebhookEndpoints = useCase({
  input: webhookEndpointListQuerySchema,
  async run(p: Platform, ctx: GroupContext, q): Promise<WebhookEndpointList> {
    const endpoints = await ctx.store.repos.webhookEndpoints.list(ctx.store, ctx.group, { limit: q.limit + 1, before: q.starting_after });
    return { data: { items: endpoints.slice(0, q.limit).map((e) => toEndpoint(e)), has_more: endpoints.length > q.limit } };
  },
});

export const getWebhookEndpoint = useCase({
  input: endpointId,
  run: async (p: Platform, ctx: GroupContext, input): Promise<WebhookEndpoint> => toEndpoint(await requireEndpoint(ctx, input.endpoint_id)),
});

export const updateWebhookEndpoint = useCase({
  input: z
    .strictObject({ ...updateWebhookEndpointFields, endpoint_id: z.string() })
    .refine((b) => changesSomething(Object.keys(b)), { error: NOTHING_TO_CHANGE }),
  run(p: Platform, ctx: GroupContext, input): Promise<WebhookEndpoint> {
    return unitOfWork(ctx, async ({ tx }) => {
      const endpoint = await requireEndpoint(ctx, input.endpoint_id, tx);
      if (endpoint.kind === 'collect' && input.url !== undefined) throw validationError([{ path: 'url', message: 'a collect endpoint has no url (its deliveries go to the inbox)' }]);
      const next: WebhookEndpointEntity = {
        ...endpoint,
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled_events !== undefined ? { enabled_events: input.enabled_events } : {}),
        ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
        updated_at: ctx.clock.nowIso(),
      };
      await tx.repos.webhookEndpoints.update(tx, next);
      return toEndpoint(next);
    });
  },
});

/**
 * A new secret, in the answer only: deliveries from now on are signed with it and, for
 * SECRET_GRACE_MS on the group's clock, with the secret it replaced as well.
 */
export const rotateWebhookSecret = useCase({
  input: endpointId,
  run(p: Platform, ctx: GroupContext, input): Promise<WebhookEndpoint> {
    return unitOfWork(ctx, async ({ tx }) => {
      const endpoint = await requireEndpoint(ctx, input.endpoint_id, tx);
      const next = { ...endpoint, secret: newWebhookSecret(), updated_at: ctx.clock.nowIso() };
      await tx.repos.webhookEndpoints.update(tx, next);
      // On the clock deliveries keep (their send time is what it is compared with).
      const graceUntil = new Date(deliveryClock(ctx.clock).clock.now().getTime() + SECRET_GRACE_MS).toISOString();
      await tx.repos.webhookSends.retireSecret(tx, ctx.group, endpoint.id, endpoint.secret, graceUntil);
      return toEndpoint(next, { withSecret: true });
    });
  },
});

/** Delete an endpoint with its waiting deliveries and its attempts. */
export const deleteWebhookEndpoint = useCase({
  input: endpointId,
  run(p: Platform, ctx: GroupContext, input): Promise<{ id: string; deleted: true }> {
    return unitOfWork(ctx, async ({ tx }) => {
      await requireEndpoint(ctx, input.endpoint_id, tx);
      await tx.repos.webhookEndpoints.delete(tx, ctx.group, input.endpoint_id);
      return { id: input.endpoint_id, deleted: true as const };
    });
  },
});

/** The attempts made to an endpoint, newest first; with `wait`, once `count` exist (long-poll.ts). */
export const listWebhookAttempts = useCase({
  input: webhookAttemptListQuerySchema.extend(endpointId.shape),
  async run(p: Platform, ctx: GroupContext, q, io): Promise<WebhookAttemptList> {
    const { waitMs, count } = waitPlan(q);
    await requireEndpoint(ctx, q.endpoint_id);
    return longPoll({
      waitMs,
      count,
      signal: io.signal,
      read: async () => {
        const attempts = await ctx.store.repos.webhookAttempts.list(ctx.store, ctx.group, q.endpoint_id, { limit: q.limit + 1, before: q.starting_after });
        return { data: { items: attempts.slice(0, q.limit).map(toAttempt), has_more: attempts.length > q.limit } };
      },
      size: (page) => page.data.items.length,
      wake: (notify) => onAttemptsRecorded(ctx.group, notify),
      share: { store: ctx.store, key: ['attempts', ctx.group, q.endpoint_id, q.starting_after, q.limit] },
    });
  },
});

/**
 * Queue the event again: to one endpoint (subscribed to its type or not), or to every
 * enabled endpoint that takes its type. Each gets a new delivery, due now, with the
 * whole retry schedule ahead of it.
 */
export const resendEvent = useCase({
  input: resendEventSchema.extend({ event_id: z.string() }),
  async run(p: Platform, ctx: GroupContext, input): Promise<ResendResult> {
    const event = await requireEvent(ctx, input.event_id);
    const result = await unitOfWork(ctx, async ({ tx }) => {
      let endpointIds: string[];
      if (input.endpoint_id !== undefined) {
        endpointIds = [(await requireEndpoint(ctx, input.endpoint_id, tx)).id];
      } else {
        const enabled = await tx.repos.webhookEndpoints.enabled(tx, ctx.group);
        endpointIds = enabled.filter((e) => matchesTypes(e.enabled_events, event.type)).map((e) => e.id);
      }
      const at = deliveryClock(ctx.clock).clock.nowIso();
      for (const id of endpointIds) await tx.repos.webhookDeliveries.insert(tx, ctx.group, id, event.id, at);
      return { event_id: event.id, endpoint_ids: endpointIds };
    });
    if (result.endpoint_ids.length > 0) nudgeDelivery(ctx.store, ctx.group, ctx.clock);
    return result;
  },
});
