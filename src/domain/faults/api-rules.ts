// The rules a sandbox sets on its own API calls: which calls (an operation, or a method
// and a path pattern), what happens (the action and its fields), and the one schema of
// a rule (the HTTP route, the CLI's flags and --file, and the OpenAPI document use it).
import { z } from 'zod';
import { timestamp } from '../strings.js';
import { addProblems, MAX_LATENCY_MS, need, refuse, scheduleFields, scheduleProblems, type Problem, type Schedule } from './schedule.js';

/**
 * Operations a rule can name instead of a method and path (sale and auth share a route,
 * told apart by the body's type). `subscription_charge` is no request: it is the billing
 * engine's charge of a subscription (each cycle and each retry), so only the actions that
 * go through the processor apply to it.
 */
export const FAULT_OPERATIONS = ['sale', 'auth', 'capture', 'void', 'refund', 'pay', 'add_card', 'subscription_charge'] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];

/** Actions that go through the simulated processor: only for operations that charge. */
export const PROCESSOR_ACTIONS = ['decline', 'avs_mismatch', 'cvv_mismatch', 'processor_unavailable'] as const;
// A capture goes to the processor too: a forced decline refuses it (the auth stays authorized).
export const CHARGING: readonly FaultOperation[] = ['sale', 'auth', 'capture', 'pay', 'subscription_charge'];
export const API_FAULT_ACTIONS = ['latency', 'error', 'timeout_after_commit', ...PROCESSOR_ACTIONS] as const;
export type ApiFaultAction = (typeof API_FAULT_ACTIONS)[number];

export const ERROR_STATUSES = [500, 502, 503, 504, 429] as const;

/** Declines the processor can be told to give: every documented code (data/test-cards.json) plus 91 and 96. */
export const DECLINE_CODES: Record<string, string> = {
  '05': 'Declined: do not honor',
  '51': 'Declined: insufficient funds',
  N7: 'Declined: address verification (AVS) mismatch',
  N8: 'Declined: security code (CVV) mismatch',
  R01: 'Declined: insufficient funds (ACH R01)',
  '91': 'Declined: issuer or switch unavailable',
  '96': 'Declined: system malfunction',
};

const apiRuleFields = {
  operation: z.enum(FAULT_OPERATIONS, { error: `must be one of ${FAULT_OPERATIONS.join(', ')}` }).optional()
    .describe('The operation the rule applies to (or give method and path)'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], { error: 'must be GET, POST, PUT, PATCH or DELETE' }).optional()
    .describe('With path: only requests of this method'),
  path: z.string().max(500, { error: 'must be at most 500 characters' }).regex(/^\/api\/v1\//, { error: 'must start with /api/v1/' }).optional()
    .describe('A request path pattern: * matches within one segment, ** across segments'),
  ...scheduleFields,
  action: z.enum(API_FAULT_ACTIONS, { error: `must be one of ${API_FAULT_ACTIONS.join(', ')}` }).describe('What happens to a call the rule fires on'),
  ms: z.number({ error: 'must be a whole number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(0, { error: 'must be at least 0' }).max(MAX_LATENCY_MS, { error: `must be at most ${MAX_LATENCY_MS}` }).optional()
    .describe('latency: the delay; timeout_after_commit: how long the connection is held before it is closed (default 0)'),
  ms_max: z.number({ error: 'must be a whole number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(0, { error: 'must be at least 0' }).max(MAX_LATENCY_MS, { error: `must be at most ${MAX_LATENCY_MS}` }).optional()
    .describe('latency: with ms, a range: each delay is drawn from ms…ms_max'),
  status: z.union(ERROR_STATUSES.map((s) => z.literal(s)), { error: `must be one of ${ERROR_STATUSES.join(', ')}` }).optional()
    .describe('error: the status answered (429 needs retry_after)'),
  retry_after: z.number({ error: 'must be a whole number of seconds' }).int({ error: 'must be a whole number of seconds' }).min(0, { error: 'must be at least 0' }).max(86_400, { error: 'must be at most 86400' }).optional()
    .describe('error 429 (or 503): seconds sent as Retry-After'),
  response_code: z.enum(Object.keys(DECLINE_CODES) as [string, ...string[]], { error: `must be one of ${Object.keys(DECLINE_CODES).join(', ')}` }).optional()
    .describe('decline: the processor response code recorded; processor_unavailable: default 91'),
};

type ApiRuleShape = { [K in keyof typeof apiRuleFields]?: unknown } & Schedule;

function apiRuleProblems(v: ApiRuleShape): Problem[] {
  const out = scheduleProblems(v);
  const r = v as Record<string, unknown>;
  if (v.operation === undefined && v.path === undefined) out.push({ path: 'operation', message: 'give an operation, or a path (with an optional method)' });
  if (v.operation !== undefined && (v.path !== undefined || v.method !== undefined)) {
    out.push({ path: v.path !== undefined ? 'path' : 'method', message: 'give either operation, or method and path, not both' });
  }
  const action = v.action as ApiFaultAction | undefined;
  if (action === undefined) return out;
  const own: Record<ApiFaultAction, string[]> = {
    latency: ['ms', 'ms_max'],
    error: ['status', 'retry_after'],
    timeout_after_commit: ['ms'],
    decline: ['response_code'],
    avs_mismatch: [],
    cvv_mismatch: [],
    processor_unavailable: ['response_code'],
  };
  refuse(r, ['ms', 'ms_max', 'status', 'retry_after', 'response_code'].filter((f) => !own[action].includes(f)), action, out);
  if (action === 'latency') {
    need(r, 'ms', action, out);
    if (typeof v.ms === 'number' && typeof v.ms_max === 'number' && v.ms_max < v.ms) out.push({ path: 'ms_max', message: 'must be at least ms' });
  }
  if (action === 'error') {
    need(r, 'status', action, out);
    if (v.status === 429 && v.retry_after === undefined) out.push({ path: 'retry_after', message: 'is required with status 429 (sent as Retry-After)' });
    if (v.retry_after !== undefined && v.status !== 429 && v.status !== 503) out.push({ path: 'retry_after', message: 'goes with status 429 or 503' });
  }
  if (action === 'decline') need(r, 'response_code', action, out);
  if (action === 'processor_unavailable') need(r, 'until', action, out);
  const processor = (PROCESSOR_ACTIONS as readonly string[]).includes(action);
  if (processor && !CHARGING.includes(v.operation as FaultOperation)) {
    out.push({ path: 'operation', message: `must be ${CHARGING.join(', ')} with action ${action} (it goes through the simulated processor)` });
  }
  if (!processor && v.operation === 'subscription_charge') {
    out.push({ path: 'action', message: `must be ${PROCESSOR_ACTIONS.join(', ')} with operation subscription_charge (the billing engine answers no request)` });
  }
  return out;
}

export const apiFaultRuleSchema = z
  .strictObject(apiRuleFields)
  .superRefine(addProblems(apiRuleProblems))
  .meta({
    id: 'FaultRuleRequest',
    description:
      'A fault rule of a sandbox: which calls (operation, or method and path), how often (rate, first or every; every call when none), for how long (count, from/until on the group clock), and what happens (action).',
  });
export type ApiFaultRuleInput = z.output<typeof apiFaultRuleSchema>;
/** The add use case's input: the rule and the group it is for (the path's id). */
export const addApiFaultRuleInput = z.strictObject({ ...apiRuleFields, group_id: z.string() }).superRefine(addProblems(apiRuleProblems));

/** A stored rule as the API answers it. */
export const apiFaultRuleResponseSchema = z
  .object({
    id: z.string(),
    group_id: z.string(),
    ...apiRuleFields,
    seed: z.number().int().describe('The seed of the rule\'s draws (the one given, or the one generated)'),
    calls: z.number().int().describe('Matching calls seen so far'),
    fired: z.number().int().describe('Calls the rule fired on so far'),
    created_at: timestamp,
  })
  .meta({ id: 'FaultRule' });
export type ApiFaultRule = ApiFaultRuleInput & { id: string; group_id: string; seed: number; calls: number; fired: number; created_at: string };
export const apiFaultRuleListSchema = z.object({ data: z.array(apiFaultRuleResponseSchema) }).meta({ id: 'FaultRuleList' });
export const deletedFaultRuleSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedFaultRule' });

/** `*` within one segment, `**` across segments; the whole path must match. */
export function pathMatcher(pattern: string): RegExp {
  const parts = pattern.split(/(\*\*|\*)/).map((s) => (s === '**' ? '.*' : s === '*' ? '[^/]*' : s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

/** Whether a rule names this request. */
export function ruleMatches(r: ApiFaultRule, req: { method: string; path: string; operation: FaultOperation | undefined }): boolean {
  if (r.operation !== undefined) return r.operation === req.operation;
  if (r.method !== undefined && r.method !== req.method) return false;
  return r.path !== undefined && pathMatcher(r.path).test(req.path);
}
