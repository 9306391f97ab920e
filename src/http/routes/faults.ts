// Fault rules of a sandbox (extension): the faults its own API calls get (docs/faults.md).
// Authorised like the sandbox's clock: the admin token, or a manage_transactions key of
// that group (another group's key is refused by the dispatcher's group check). Rules of
// a webhook endpoint take a manage_webhooks key of the endpoint's group.
import { adminOrKey, keyAuth, type RouteDef, route } from '../route.js';
import {
  apiFaultRuleListSchema,
  apiFaultRuleResponseSchema,
  apiFaultRuleSchema,
  deletedFaultRuleSchema,
  webhookFaultRuleListSchema,
  webhookFaultRuleResponseSchema,
  webhookFaultRuleSchema,
} from '../../domain/faults.js';
import { SIMULATE_HEADER } from '../faults/simulate.js';
import { addFaultRule, listFaultRules, removeFaultRule } from '../../services/faults/rules.js';
import { addWebhookFaultRule, listWebhookFaultRules, removeWebhookFaultRule } from '../../services/faults/webhook-rules.js';
import { execute, executeRaw, withParams } from '../../services/use-case.js';

const tag = 'Faults';
const auth = adminOrKey('manage_transactions');

export const faultRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/api/v1/sandboxes/:group_id/faults',
    summary: "Add a fault rule: the group's matching API calls get latency, an error, a dropped answer after commit, or a processor decline",
    description:
      `Rules are tried oldest first; the first that fires decides (one fault per call). Every injected fault is named in the answer's Payctl-Fault header and in the request log. The seed (given, or generated and returned) makes the rule's draws repeatable: the same seed and the same calls give the same faults. A single call can ask for one fault with the ${SIMULATE_HEADER} header instead (sandboxes only).`,
    tag,
    extension: true,
    auth,
    body: apiFaultRuleSchema,
    response: apiFaultRuleResponseSchema,
    status: 201,
    handler: (c) => executeRaw(addFaultRule, c.platform, c.ctx, withParams(c.body, { group_id: c.params.group_id })),
  }),
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id/faults',
    summary: "A group's fault rules, oldest first, with their seeds and counters",
    tag,
    extension: true,
    auth,
    response: apiFaultRuleListSchema,
    handler: (c) => execute(listFaultRules, c.platform, c.ctx, { group_id: c.params.group_id }),
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/sandboxes/:group_id/faults/:fault_id',
    summary: 'Remove a fault rule',
    tag,
    extension: true,
    auth,
    response: deletedFaultRuleSchema,
    handler: (c) => execute(removeFaultRule, c.platform, c.ctx, { group_id: c.params.group_id, fault_id: c.params.fault_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/webhook_endpoints/:endpoint_id/faults',
    summary: "Add a fault rule to a webhook endpoint: its attempts are duplicated, held back (delay, reorder), dropped, or badly signed",
    description:
      'duplicate sends the same message (same webhook-id) twice; delay holds an attempt for a duration of the group\'s platform time; reorder holds it back by a time drawn from the seed within a window, so later events overtake it; drop sends nothing and counts a failed attempt (retried on the schedule); bad_signature signs with a secret nobody has. Each attempt records the fault it got (`fault`), shown by the deliveries list.',
    tag: 'Webhooks',
    extension: true,
    auth: keyAuth('manage_webhooks'),
    body: webhookFaultRuleSchema,
    response: webhookFaultRuleResponseSchema,
    status: 201,
    handler: (c) => executeRaw(addWebhookFaultRule, c.platform, c.groupCtx, withParams(c.body, { group_id: c.params.group_id, endpoint_id: c.params.endpoint_id })),
  }),
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/webhook_endpoints/:endpoint_id/faults',
    summary: "A webhook endpoint's fault rules, oldest first, with their seeds and counters",
    tag: 'Webhooks',
    extension: true,
    auth: keyAuth('manage_webhooks'),
    response: webhookFaultRuleListSchema,
    handler: (c) => execute(listWebhookFaultRules, c.platform, c.groupCtx, { group_id: c.params.group_id, endpoint_id: c.params.endpoint_id }),
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/groups/:group_id/webhook_endpoints/:endpoint_id/faults/:webhook_fault_id',
    summary: "Remove a webhook endpoint's fault rule",
    tag: 'Webhooks',
    extension: true,
    auth: keyAuth('manage_webhooks'),
    response: deletedFaultRuleSchema,
    handler: (c) =>
      execute(removeWebhookFaultRule, c.platform, c.groupCtx, { group_id: c.params.group_id, endpoint_id: c.params.endpoint_id, fault_id: c.params.webhook_fault_id }),
  }),
];
