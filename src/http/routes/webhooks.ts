// Webhook endpoints of a group, the attempts made to each, and resending an event: all
// for keys with manage_webhooks.
import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import {
  deletedWebhookEndpointSchema,
  resendEventSchema,
  resendResultSchema,
  updateWebhookEndpointSchema,
  webhookAttemptListQuerySchema,
  webhookAttemptListSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
} from '../../domain/webhooks.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookAttempts,
  listWebhookEndpoints,
  resendEvent,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../services/webhooks/endpoints.js';
import { execute, executeRaw, withParams } from '../../services/use-case.js';

const auth = keyAuth('manage_webhooks');
const tag = 'Webhooks';
const base = '/api/v1/groups/:group_id/webhook_endpoints';

export const webhookRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: base,
    summary: 'Create a webhook endpoint',
    description:
      'Events of the `enabled_events` types are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`) with the `secret` of this answer — shown here and after a rotation only. Failed attempts are retried on the group\'s clock: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.',
    tag,
    extension: true,
    auth,
    body: createWebhookEndpoint.input,
    response: webhookEndpointSchema,
    handler: (c) => executeRaw(createWebhookEndpoint, c.platform, c.groupCtx, c.body),
  }),
  route({
    method: 'GET',
    path: base,
    summary: 'List webhook endpoints, newest first',
    tag,
    extension: true,
    auth,
    query: listWebhookEndpoints.input,
    response: webhookEndpointListSchema,
    handler: (c) => executeRaw(listWebhookEndpoints, c.platform, c.groupCtx, c.query),
  }),
  route({
    method: 'GET',
    path: `${base}/:endpoint_id`,
    summary: 'Get a webhook endpoint (without its secret)',
    tag,
    extension: true,
    auth,
    response: webhookEndpointSchema,
    handler: (c) => execute(getWebhookEndpoint, c.platform, c.groupCtx, { endpoint_id: c.params.endpoint_id }),
  }),
  route({
    method: 'PATCH',
    path: `${base}/:endpoint_id`,
    summary: 'Update a webhook endpoint',
    description: 'Only the fields given change. A disabled endpoint gets no new deliveries; its waiting retries resume when it is enabled again.',
    tag,
    extension: true,
    auth,
    body: updateWebhookEndpointSchema,
    response: webhookEndpointSchema,
    handler: (c) => executeRaw(updateWebhookEndpoint, c.platform, c.groupCtx, withParams(c.body, { endpoint_id: c.params.endpoint_id })),
  }),
  route({
    method: 'POST',
    path: `${base}/:endpoint_id/rotate_secret`,
    summary: 'Replace the signing secret of a webhook endpoint',
    description:
      "The answer carries the new secret (the only time it is shown); every attempt from now on is signed with it and, for 24 hours of the group's clock, with the secret it replaced as well (a second `v1,` signature in `webhook-signature`, as Standard Webhooks allows), so a receiver still holding the old secret keeps verifying while it switches.",
    tag,
    extension: true,
    auth,
    response: webhookEndpointSchema,
    handler: (c) => execute(rotateWebhookSecret, c.platform, c.groupCtx, { endpoint_id: c.params.endpoint_id }),
  }),
  route({
    method: 'GET',
    path: `${base}/:endpoint_id/deliveries`,
    summary: 'List the delivery attempts made to a webhook endpoint, newest first',
    description: 'Every attempt: its outcome, the response status, latency and the first 1 KiB of the response body, and when the next attempt is due. Page with `starting_after` (the last id of a page); `wait` (e.g. `5s`, at most 30 s) answers as soon as at least `count` attempts exist, else at the deadline with what there is.',
    tag,
    extension: true,
    auth,
    query: webhookAttemptListQuerySchema,
    response: webhookAttemptListSchema,
    handler: (c) => executeRaw(listWebhookAttempts, c.platform, c.groupCtx, withParams(c.query, { endpoint_id: c.params.endpoint_id }), { signal: c.signal }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/events/:event_id/resend',
    summary: 'Deliver an event again',
    description: 'A new delivery, due now, to `endpoint_id` (subscribed to the type or not) or to every enabled endpoint that takes the type.',
    tag,
    extension: true,
    auth,
    body: resendEventSchema,
    response: resendResultSchema,
    handler: (c) => executeRaw(resendEvent, c.platform, c.groupCtx, withParams(c.body ?? {}, { event_id: c.params.event_id })),
  }),
  // Last: suites that walk the table in order use the endpoint before deleting it.
  route({
    method: 'DELETE',
    path: `${base}/:endpoint_id`,
    summary: 'Delete a webhook endpoint, its waiting deliveries and its attempts (a collect endpoint: its inbox messages too)',
    tag,
    extension: true,
    auth,
    response: deletedWebhookEndpointSchema,
    handler: (c) => execute(deleteWebhookEndpoint, c.platform, c.groupCtx, { endpoint_id: c.params.endpoint_id }),
  }),
];
