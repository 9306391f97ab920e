// Fault rules of a sandbox (extension): the faults its own API calls get (docs/faults.md).
// Authorised like the sandbox's clock: the admin token, or a manage_transactions key of
// that group (another group's key is refused by the dispatcher's group check).
import { adminOrKey, type RouteDef, route } from '../route.js';
import { apiFaultRuleListSchema, apiFaultRuleResponseSchema, apiFaultRuleSchema, deletedFaultRuleSchema, SIMULATE_HEADER } from '../../domain/faults.js';
import { addFaultRule, listFaultRules, removeFaultRule } from '../../services/faults/rules.js';
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
];
