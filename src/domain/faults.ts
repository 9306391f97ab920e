// Fault injection: the rules a sandbox sets on its own API calls, as pure rules. One
// schema per rule shape (the HTTP route, the CLI's flags and --file, and the OpenAPI
// document all use these), which call of a rule's sequence fires (seeded, stateless:
// call n of seed s fires or not, whatever ran before), and the one-off
// `Payctl-Simulate` header. No I/O here: services/faults keeps the counters.
import { z } from 'zod';
import { parseDuration, parseInstant } from './time.js';
import { timestamp } from './strings.js';
import type { Outcome } from '../processor/test-cards.js';

/**
 * Operations a rule can name instead of a method and path (sale and auth share a route,
 * told apart by the body's type). `subscription_charge` is no request: it is the billing
 * engine's charge of a subscription (each cycle and each retry), so only the actions that
 * go through the processor apply to it.
 */
export const FAULT_OPERATIONS = ['sale', 'auth', 'capture', 'void', 'refund', 'pay', 'add_card', 'subscription_charge'] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];

/** The route (polka pattern) of each operation; `pay` has a public and a group path. */
export const OPERATION_ROUTES: Record<string, FaultOperation> = {
  'POST /api/v1/groups/:group_id/transaction': 'sale',
  'POST /api/v1/groups/:group_id/transaction/:transaction_id/capture': 'capture',
  'POST /api/v1/groups/:group_id/transaction/:transaction_id/void': 'void',
  'POST /api/v1/groups/:group_id/transaction/:transaction_id/refund': 'refund',
  'POST /api/v1/groups/:group_id/payment-links/:payment_link_id/pay': 'pay',
  'POST /api/v1/payment-links/:payment_link_id/pay': 'pay',
  'POST /api/v1/groups/:group_id/processing/:linked_account_id/customers/:customer_id/payment_methods/card': 'add_card',
};

/** The operation of a request to `routePath` (its pattern), or undefined. */
export function operationOf(method: string, routePath: string, body: unknown): FaultOperation | undefined {
  const op = OPERATION_ROUTES[`${method} ${routePath}`];
  if (op === 'sale' && typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'auth') return 'auth';
  return op;
}

/** Actions that go through the simulated processor: only for operations that charge. */
const PROCESSOR_ACTIONS = ['decline', 'avs_mismatch', 'cvv_mismatch', 'processor_unavailable'] as const;
// A capture goes to the processor too: a forced decline refuses it (the auth stays authorized).
const CHARGING: readonly FaultOperation[] = ['sale', 'auth', 'capture', 'pay', 'subscription_charge'];
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

const MAX_N = 1_000_000;
const MAX_LATENCY_MS = 60_000;
const MAX_SEED = 0xffffffff;

const instant = z.string().max(40, { error: 'must be at most 40 characters' }).refine(
  (v) => {
    try {
      parseInstant(v);
      return true;
    } catch {
      return false;
    }
  },
  { error: 'must be an RFC 3339 time with a zone, like 2027-01-01T00:00:00Z' },
);
const count = (what: string) =>
  z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(MAX_N, { error: `must be at most ${MAX_N}` }).describe(what);

// The API reads a number with a fraction as its text (src/lib/exact-json.ts, quoteNonIntegerNumbers: every
// other number is an integer), so a rate comes as 0.25 or "0.25"; it is kept as a number.
const RATE_TEXT = /^(0|1)(\.\d{1,9})?$/;
const rate = z
  .union([z.number(), z.string().regex(RATE_TEXT, { error: 'must be a number from 0 to 1, like 0.25' })], { error: 'must be a number from 0 to 1, like 0.25' })
  .transform(Number)
  .pipe(z.number().min(0, { error: 'must be from 0 to 1' }).max(1, { error: 'must be from 0 to 1' }));

/** How often and for how long a rule fires: shared by API and webhook rules. */
const scheduleFields = {
  rate: rate.optional().describe('Fire on this share of matching calls, drawn from the seed (0–1, like 0.25)'),
  first: count('Fire on the first N matching calls').optional(),
  every: count('Fire on every Nth matching call (the Nth, 2Nth …)').optional(),
  count: count('Stop after firing this many times').optional(),
  from: instant.optional().describe("Active from this time of the group's clock"),
  until: instant.optional().describe("Active until this time of the group's clock (exclusive)"),
  seed: z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(0, { error: 'must be at least 0' }).max(MAX_SEED, { error: `must be at most ${MAX_SEED}` }).optional()
    .describe('Seed of the rule\'s draws (rate, latency ranges); generated and returned when absent'),
};

type Problem = { path: string; message: string };
type Schedule = { rate?: number; first?: number; every?: number; from?: string; until?: string };

function scheduleProblems(v: Schedule): Problem[] {
  const out: Problem[] = [];
  const given = (['rate', 'first', 'every'] as const).filter((k) => v[k] !== undefined);
  if (given.length > 1) out.push({ path: given[1]!, message: `give at most one of rate, first or every (${given.join(' and ')} given)` });
  if (v.from !== undefined && v.until !== undefined) {
    try {
      if (parseInstant(v.until).getTime() <= parseInstant(v.from).getTime()) out.push({ path: 'until', message: 'must be after from' });
    } catch {
      // the field's own rule names it
    }
  }
  return out;
}

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

const need = (v: Record<string, unknown>, field: string, action: string, out: Problem[]) => {
  if (v[field] === undefined) out.push({ path: field, message: `is required with action ${action}` });
};
const refuse = (v: Record<string, unknown>, fields: string[], action: string, out: Problem[]) => {
  for (const f of fields) if (v[f] !== undefined) out.push({ path: f, message: `is not a field of action ${action}` });
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

const addProblems = <T>(problems: (v: T) => Problem[]) => (v: T, ctx: z.RefinementCtx) => {
  for (const p of problems(v)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
};

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

// --- the seeded draws -------------------------------------------------------------

/** A 32-bit mix of (seed, call, draw) (splitmix-style): the same three give the same number, on any machine. */
function mix(seed: number, call: number, draw: number): number {
  let h = (seed ^ Math.imul(call, 0x9e3779b9) ^ Math.imul(draw + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Draw `draw` of call `call` of `seed`: a number in [0, 1). */
export const uniform = (seed: number, call: number, draw = 0): number => mix(seed, call, draw) / 0x1_0000_0000;

/** Whether call number `call` (1-based, counting the rule's matching calls) fires, before count and window. */
export function fires(rule: Schedule & { seed: number }, call: number): boolean {
  if (rule.first !== undefined) return call <= rule.first;
  if (rule.every !== undefined) return call % rule.every === 0;
  if (rule.rate !== undefined) return uniform(rule.seed, call, 0) < rule.rate;
  return true;
}

/** Whether `now` (ms) is inside the rule's window of the group's clock. */
export function inWindow(rule: { from?: string; until?: string }, nowMs: number): boolean {
  if (rule.from !== undefined && nowMs < parseInstant(rule.from).getTime()) return false;
  if (rule.until !== undefined && nowMs >= parseInstant(rule.until).getTime()) return false;
  return true;
}

export const newSeed = (random: () => number = Math.random): number => Math.floor(random() * (MAX_SEED + 1)) >>> 0;

/** `*` within one segment, `**` across segments; the whole path must match. */
export function pathMatcher(pattern: string): RegExp {
  const parts = pattern.split(/(\*\*|\*)/).map((s) => (s === '**' ? '.*' : s === '*' ? '[^/]*' : s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

// --- what a fired rule does ------------------------------------------------------

/** What the dispatcher does with a request (one fault per request: the first rule that fires). */
export type FaultEffect =
  | { action: 'latency'; ms: number }
  | { action: 'error'; status: number; retry_after?: number }
  | { action: 'timeout_after_commit'; ms: number }
  | { action: 'decline' | 'avs_mismatch' | 'cvv_mismatch' | 'processor_unavailable'; outcome: Outcome };

export interface InjectedFault {
  effect: FaultEffect;
  /** The rule that fired, or `simulate` for the one-off header. */
  rule: string;
  /** The rule's call number that fired (absent for the header). */
  call?: number;
}

/** The processor outcome a decline-type action forces. */
export function forcedOutcome(action: FaultEffect['action'], responseCode?: string): Outcome {
  if (action === 'avs_mismatch') return { approved: false, response_code: 'N7', response_text: DECLINE_CODES.N7!, avs: 'N', cvv: 'M' };
  if (action === 'cvv_mismatch') return { approved: false, response_code: 'N8', response_text: DECLINE_CODES.N8!, avs: 'Y', cvv: 'N' };
  const code = responseCode ?? (action === 'processor_unavailable' ? '91' : '05');
  return { approved: false, response_code: code, response_text: DECLINE_CODES[code] ?? 'Declined', avs: 'Y', cvv: 'M' };
}

/** The effect of rule `r` firing on call `call` (latency ranges are drawn from the seed). */
export function effectOf(r: ApiFaultRule, call: number): FaultEffect {
  switch (r.action) {
    case 'latency': {
      const lo = r.ms ?? 0;
      const hi = r.ms_max ?? lo;
      return { action: 'latency', ms: lo + Math.floor(uniform(r.seed, call, 1) * (hi - lo + 1)) };
    }
    case 'error':
      return { action: 'error', status: r.status!, ...(r.retry_after !== undefined ? { retry_after: r.retry_after } : {}) };
    case 'timeout_after_commit':
      return { action: 'timeout_after_commit', ms: r.ms ?? 0 };
    default:
      return { action: r.action, outcome: forcedOutcome(r.action, r.response_code) };
  }
}

/** Whether a rule names this request. */
export function ruleMatches(r: ApiFaultRule, req: { method: string; path: string; operation: FaultOperation | undefined }): boolean {
  if (r.operation !== undefined) return r.operation === req.operation;
  if (r.method !== undefined && r.method !== req.method) return false;
  return r.path !== undefined && pathMatcher(r.path).test(req.path);
}

/** The `Payctl-Fault` header value (also the request log's `fault`): the action, its parameters, the rule and call. */
export function describeFault(f: InjectedFault): string {
  const e = f.effect;
  const params: string[] = [e.action];
  if (e.action === 'latency' || e.action === 'timeout_after_commit') params.push(`ms=${e.ms}`);
  if (e.action === 'error') {
    params.push(`status=${e.status}`);
    if (e.retry_after !== undefined) params.push(`retry_after=${e.retry_after}`);
  }
  if ('outcome' in e) params.push(`response_code=${e.outcome.response_code}`);
  params.push(`rule=${f.rule}`);
  if (f.call !== undefined) params.push(`call=${f.call}`);
  return params.join('; ');
}

// --- the one-off header ------------------------------------------------------------

export const SIMULATE_HEADER = 'Payctl-Simulate';

/**
 * `Payctl-Simulate`: one fault for one call. `timeout_after_commit`, `error=503`,
 * `error=429;retry_after=2`, `latency=2s` (or `250ms`), `decline=51`, `avs_mismatch`,
 * `cvv_mismatch`. Throws a message naming the rule broken.
 */
export function parseSimulate(value: string, operation: FaultOperation | undefined): FaultEffect {
  const [head = '', ...rest] = value.split(';').map((s) => s.trim());
  const [name = '', arg] = head.split('=').map((s) => s.trim());
  const params = Object.fromEntries(rest.map((p) => p.split('=').map((s) => s.trim()) as [string, string]));
  const charging = () => {
    if (!CHARGING.includes(operation as FaultOperation)) throw new Error(`${name} applies only to ${CHARGING.join(', ')} calls`);
  };
  switch (name) {
    case 'timeout_after_commit':
      return { action: 'timeout_after_commit', ms: 0 };
    case 'error': {
      const status = Number(arg);
      if (!(ERROR_STATUSES as readonly number[]).includes(status)) throw new Error(`error=<status>: status must be one of ${ERROR_STATUSES.join(', ')}`);
      const retry = params.retry_after ?? (status === 429 ? '1' : undefined);
      if (retry !== undefined && !/^\d{1,5}$/.test(retry)) throw new Error('retry_after must be a whole number of seconds');
      return { action: 'error', status, ...(retry !== undefined ? { retry_after: Number(retry) } : {}) };
    }
    case 'latency': {
      const ms = parseLatency(arg ?? '');
      if (ms === undefined || ms > MAX_LATENCY_MS) throw new Error(`latency=<duration>: like 250ms or 2s, at most ${MAX_LATENCY_MS / 1000}s`);
      return { action: 'latency', ms };
    }
    case 'decline':
      charging();
      if (arg === undefined || !(arg in DECLINE_CODES)) throw new Error(`decline=<code>: code must be one of ${Object.keys(DECLINE_CODES).join(', ')}`);
      return { action: 'decline', outcome: forcedOutcome('decline', arg) };
    case 'avs_mismatch':
    case 'cvv_mismatch':
      charging();
      return { action: name, outcome: forcedOutcome(name) };
    default:
      throw new Error('must be timeout_after_commit, error=<status>, latency=<duration>, decline=<code>, avs_mismatch or cvv_mismatch');
  }
}

function parseLatency(text: string): number | undefined {
  const ms = /^(\d{1,6})ms$/.exec(text);
  if (ms) return Number(ms[1]);
  try {
    return parseDuration(text);
  } catch {
    return undefined;
  }
}

// --- faults on webhook deliveries ---------------------------------------------------

export const WEBHOOK_FAULT_ACTIONS = ['duplicate', 'reorder', 'delay', 'drop', 'bad_signature'] as const;
export type WebhookFaultAction = (typeof WEBHOOK_FAULT_ACTIONS)[number];

const platformDuration = (what: string) =>
  z.string().max(40, { error: 'must be at most 40 characters' }).refine(
    (v) => {
      try {
        const ms = parseDuration(v);
        return ms > 0 && ms <= 366 * 86_400_000;
      } catch {
        return false;
      }
    },
    { error: 'must be a duration of platform time from 1s to 366d: 30s, 5m, 2h, 1d12h' },
  ).describe(what);

export const webhookRuleFields = {
  ...scheduleFields,
  action: z.enum(WEBHOOK_FAULT_ACTIONS, { error: `must be one of ${WEBHOOK_FAULT_ACTIONS.join(', ')}` }).describe('What happens to an attempt the rule fires on'),
  delay: platformDuration("delay: how long the attempt is held, in the group's platform time (30s, 2h)").optional(),
  window: platformDuration('reorder: the attempt is held back by a time drawn from the seed within this window, so later events overtake it').optional(),
};

function webhookRuleProblems(v: Schedule & { action?: unknown; delay?: unknown; window?: unknown }): Problem[] {
  const out = scheduleProblems(v);
  const r = v as Record<string, unknown>;
  const action = v.action as WebhookFaultAction | undefined;
  if (action === undefined) return out;
  refuse(r, ['delay', 'window'].filter((f) => !(action === 'delay' && f === 'delay') && !(action === 'reorder' && f === 'window')), action, out);
  if (action === 'delay') need(r, 'delay', action, out);
  if (action === 'reorder') need(r, 'window', action, out);
  return out;
}

export const webhookFaultRuleSchema = z
  .strictObject(webhookRuleFields)
  .superRefine(addProblems(webhookRuleProblems))
  .meta({
    id: 'WebhookFaultRuleRequest',
    description:
      "A fault rule of a webhook endpoint: how often (rate, first or every; every attempt when none), for how long (count, from/until on the group clock), and what happens to an attempt (action). Recorded on the attempt (fault).",
  });
export const addWebhookFaultRuleInput = z
  .strictObject({ ...webhookRuleFields, group_id: z.string(), endpoint_id: z.string() })
  .superRefine(addProblems(webhookRuleProblems));
export type WebhookFaultRuleInput = z.output<typeof webhookFaultRuleSchema>;
export type WebhookFaultRule = WebhookFaultRuleInput & {
  id: string;
  group_id: string;
  endpoint_id: string;
  seed: number;
  calls: number;
  fired: number;
  created_at: string;
};
export const webhookFaultRuleResponseSchema = z
  .object({
    id: z.string(),
    group_id: z.string(),
    endpoint_id: z.string(),
    ...webhookRuleFields,
    seed: z.number().int().describe("The seed of the rule's draws (the one given, or the one generated)"),
    calls: z.number().int().describe('Attempts seen so far'),
    fired: z.number().int().describe('Attempts the rule fired on so far'),
    created_at: timestamp,
  })
  .meta({ id: 'WebhookFaultRule' });
export const webhookFaultRuleListSchema = z.object({ data: z.array(webhookFaultRuleResponseSchema) }).meta({ id: 'WebhookFaultRuleList' });

/** What a fired webhook rule does to one attempt. */
export type WebhookFaultEffect =
  | { action: 'duplicate' | 'drop' | 'bad_signature' }
  | { action: 'delay' | 'reorder'; holdMs: number };

export interface InjectedWebhookFault {
  effect: WebhookFaultEffect;
  rule: string;
  call: number;
}

/** The effect of webhook rule `r` firing on attempt `call` (a reorder's hold is drawn from the seed within its window). */
export function webhookEffectOf(r: WebhookFaultRule, call: number): WebhookFaultEffect {
  if (r.action === 'delay') return { action: 'delay', holdMs: parseDuration(r.delay!) };
  if (r.action === 'reorder') return { action: 'reorder', holdMs: 1000 + Math.floor(uniform(r.seed, call, 1) * Math.max(1, parseDuration(r.window!) - 1000)) };
  return { action: r.action };
}

/** How an attempt names its fault (the attempt's `fault`): `drop; rule=<id>; call=<n>`, a hold with its length. */
export function describeWebhookFault(f: InjectedWebhookFault): string {
  const hold = 'holdMs' in f.effect ? `; held=${Math.round(f.effect.holdMs / 1000)}s` : '';
  return `${f.effect.action}${hold}; rule=${f.rule}; call=${f.call}`;
}
