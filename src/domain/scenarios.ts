// Scenario files: a readable, replayable run of a sandbox (docs/scenarios.md). One zod
// schema for the file: it validates a file before anything runs, and its JSON Schema
// (`scenarioJsonSchema`, served at /api/v1/scenario.schema.json and shipped as
// data/scenario.schema.json) lets editors complete and check the same shape. A step is
// told apart by its one kind key (request, clock, fault, expect_events, expect_webhooks,
// repeat), so a problem is reported against that kind's fields, not "no union member".
// Also the pure rules of a run: references (`${name.path}`, `$${` for a literal `${`), the
// bounds a file is held to before it runs (a request's path stays on the server under
// test, repeats by their product, step timeouts), body subsets, event matches.
import { z } from 'zod';
import { apiFaultRuleSchema, webhookRuleFields } from './faults.js';
import { moveClockSchema } from './sandboxes.js';
import { instantSchema, parseDuration } from './time.js';
import { PERMISSIONS } from './permissions.js';
import { requestPathProblem } from './scenario-paths.js';

export const STEP_KINDS = ['request', 'clock', 'fault', 'expect_events', 'expect_webhooks', 'repeat'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** Names a reference may start with besides saved answers. */
export const BUILT_IN_SCOPES = ['demo', 'sandbox', 'env', 'repeat'] as const;
const SAVE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_REPEAT = 1000;
/** Nested repeats multiply: the steps inside run the product of their counts times, at most this. */
export const MAX_REPEAT_PRODUCT = 10_000;
/** Steps a file runs in all, repeats counted out. */
export const MAX_STEP_RUNS = 100_000;
/** How long a request, clock or fault step may take by default, and the most a step or run may set. */
export const DEFAULT_STEP_TIMEOUT = '30s';
export const MAX_STEP_TIMEOUT_MS = 600_000;
/** Environment variables with this prefix are readable as ${env.NAME} without --env NAME. */
export const ENV_PREFIX = 'PAYCTL_SCENARIO_';
/** How long an expectation of events or webhooks waits by default. */
export const DEFAULT_WAIT = '5s';
const MAX_WAIT_MS = 300_000;

const label = z.string().max(200, { error: 'must be at most 200 characters' }).optional().describe('A label for the step in the output');

const durationWithin = (minMs: number, maxMs: number) => (v: string): boolean => {
  try {
    const ms = parseDuration(v);
    return ms >= minMs && ms <= maxMs;
  } catch {
    return false;
  }
};
const duration = (what: string) =>
  z.string().max(40).refine(durationWithin(1, MAX_WAIT_MS), { error: `must be a duration from 1s to ${MAX_WAIT_MS / 1000}s, like 5s or 2m` }).describe(what);

const STEP_TIMEOUT_RULE = `must be a duration from 1s to ${MAX_STEP_TIMEOUT_MS / 60_000}m, like 10s or 2m`;
/** A step timeout (a step's `timeout:`, `--step-timeout`) in milliseconds, or the rule it breaks. */
export function stepTimeoutMs(text: string): number | { error: string } {
  return durationWithin(1000, MAX_STEP_TIMEOUT_MS)(text) ? parseDuration(text) : { error: STEP_TIMEOUT_RULE };
}
const stepTimeout = () => z.string().max(40).refine(durationWithin(1000, MAX_STEP_TIMEOUT_MS), { error: STEP_TIMEOUT_RULE }).optional()
  .describe(`How long the step may take (default ${DEFAULT_STEP_TIMEOUT}, or the run's --step-timeout); a stream is read until then`);

export const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\S+)$/;

export const requestStepSchema = z.strictObject({
  name: label,
  request: z.string().regex(REQUEST_LINE, { error: 'must be a method and a path, like POST /api/v1/groups/{group_id}/transaction' })
    .superRefine((v, ctx) => {
      const path = REQUEST_LINE.exec(v)?.[2];
      const problem = path === undefined ? undefined : requestPathProblem(pathTemplate(path));
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('Method and path; {group_id}, {linked_account_id} and {processor_id} are the sandbox\'s, ${…} references are filled in'),
  body: z.unknown().optional().describe('The JSON body (references filled in; a whole-string reference keeps its type)'),
  headers: z.record(z.string(), z.string()).optional().describe('Extra request headers (Idempotency-Key, Payctl-Simulate, Authorization to replace the key)'),
  key: z.enum([...PERMISSIONS, 'admin', 'none'], { error: `must be a permission kind (${PERMISSIONS.join(', ')}), admin or none` }).optional()
    .describe("Which of the sandbox's keys is sent: a permission kind, admin (the sandbox admin token) or none; default the permission the route needs"),
  save: z.string().regex(SAVE_NAME, { error: 'must be a name of letters, digits and _ (not starting with a digit)' })
    .refine((v) => !(BUILT_IN_SCOPES as readonly string[]).includes(v), { error: `must not be ${BUILT_IN_SCOPES.join(', ')} (built-in references)` })
    .optional().describe('Keep the answer body under this name for ${name.path} references in later steps'),
  expect: z.strictObject({
    status: z.number().int().min(100).max(599).optional().describe('The answer status (default: any 2xx)'),
    body: z.unknown().optional().describe('A subset the answer body must contain: objects by key, arrays element by element; for a stream, its messages'),
  }).optional(),
  timeout: stepTimeout(),
});

export const clockStepSchema = z.strictObject({ name: label, clock: moveClockSchema.describe("Move the sandbox's clock (its due work runs)"), timeout: stepTimeout() });

export const webhookFaultStepSchema = z.strictObject({
  endpoint: z.string().describe('The webhook endpoint, usually a reference: ${hook.id}'),
  ...webhookRuleFields,
});

export const faultStepSchema = z.strictObject({
  name: label,
  fault: z.union([apiFaultRuleSchema, webhookFaultStepSchema]).describe('An API fault rule (docs/faults.md), or with endpoint a rule on that webhook endpoint'),
  timeout: stepTimeout(),
});

export const eventExpectationSchema = z.strictObject({
  type: z.string().min(1).max(200).describe('An event type or a glob: subscription.charged, transaction.*, *'),
  count: z.number().int().min(0).max(100_000).optional().describe('Exactly this many matching ones since the run started (default: at least one)'),
  match: z.record(z.string(), z.unknown()).optional().describe('A subset of the event: dotted paths (data.object.id) or nested objects'),
  timeout: duration('How long to wait for them (default 5s)').optional(),
});
export type EventExpectation = z.output<typeof eventExpectationSchema>;

export const expectEventsStepSchema = z.strictObject({
  name: label,
  expect_events: z.array(eventExpectationSchema).min(1).max(100).describe("Events of the sandbox (the events API) since the run started"),
});
export const expectWebhooksStepSchema = z.strictObject({
  name: label,
  expect_webhooks: z.array(eventExpectationSchema).min(1).max(100)
    .describe('Webhooks delivered to the run\'s own verifying receiver (an endpoint for every event, made when the run starts), signatures checked'),
});

export type Step =
  | z.output<typeof requestStepSchema>
  | z.output<typeof clockStepSchema>
  | z.output<typeof faultStepSchema>
  | z.output<typeof expectEventsStepSchema>
  | z.output<typeof expectWebhooksStepSchema>
  | RepeatStep;
export interface RepeatStep {
  name?: string;
  repeat: number;
  steps: Step[];
}

export const repeatStepSchema = z.strictObject({
  name: label,
  repeat: z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(MAX_REPEAT, { error: `must be at most ${MAX_REPEAT}` })
    .describe(`Run steps this many times (\${repeat.index} counts from 0); nested repeats at most ${MAX_REPEAT_PRODUCT} times in product`),
  get steps() {
    return z.array(stepSchema).min(1).describe('The steps to repeat');
  },
});

/** The kind schemas, by their key: the runner's dispatch and the validator's. */
export const STEP_SCHEMAS: Record<StepKind, z.ZodType> = {
  request: requestStepSchema,
  clock: clockStepSchema,
  fault: faultStepSchema,
  expect_events: expectEventsStepSchema,
  expect_webhooks: expectWebhooksStepSchema,
  repeat: repeatStepSchema,
};

export const stepSchema: z.ZodType<Step> = z.union([
  requestStepSchema,
  clockStepSchema,
  faultStepSchema,
  expectEventsStepSchema,
  expectWebhooksStepSchema,
  repeatStepSchema,
]) as unknown as z.ZodType<Step>;

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional().describe('The JSON Schema of this format (for editors)'),
    name: z.string().min(1).max(200).describe('What the scenario shows'),
    description: z.string().max(5000).optional(),
    sandbox: z.strictObject({
      demo: z.boolean().optional().describe('Add the demo data (its ids as ${demo.customer_id} …)'),
      clock: instantSchema({ date: true }).optional().describe("The sandbox clock's start"),
      name: z.string().min(1).max(100).optional(),
    }).optional().describe('The fresh sandbox the run makes (ignored with --group)'),
    steps: z.array(stepSchema).min(1).max(10_000),
  })
  .meta({ id: 'Scenario', title: 'payctl scenario file', description: 'Steps run against a fresh sandbox: requests, clock moves, faults, expectations (docs/scenarios.md)' });
export type Scenario = z.output<typeof scenarioSchema>;

/** The JSON Schema of a scenario file (what editors read). */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
}

export const kindOf = (step: object): StepKind | undefined => STEP_KINDS.find((k) => k in step);

// --- references -------------------------------------------------------------------

/** A reference, or `$${` (a literal `${`, so text can say `${` and a recording replays as it was). */
const TOKEN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}/g;
const WHOLE_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}$/;
export { escapeText } from './scenario-text.js';

/** Every reference in a value's strings, as [name, dotted path] (`${plan.id}` → ['plan', '.id']). */
function* refsIn(value: unknown): Generator<[string, string]> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(TOKEN)) if (m[1] !== undefined) yield [m[1], m[2] ?? ''];
  } else if (Array.isArray(value)) for (const v of value) yield* refsIn(v);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* refsIn(v);
}

/** The names a value refers to (`${plan.id}` → plan), for the check before a run. */
export function referencedNames(value: unknown, out: Set<string> = new Set()): Set<string> {
  for (const [name] of refsIn(value)) out.add(name);
  return out;
}

/** What follows `env` in each `${env…}` reference: `.HOME` for `${env.HOME}`, '' for a bare `${env}`. */
export const envRefs = (value: unknown): string[] => [...refsIn(value)].filter(([name]) => name === 'env').map(([, path]) => path);

/** The environment variable names a value reads (`${env.NAME}`). */
export const envNames = (value: unknown): string[] => envRefs(value).filter((p) => /^\.[^.]+$/.test(p)).map((p) => p.slice(1));

/** Whether a run may read an environment variable: named with --env, or carrying the scenario prefix. */
export const envAllowed = (name: string, allowed: readonly string[]): boolean => allowed.includes(name) || name.startsWith(ENV_PREFIX);

export class ReferenceError extends Error {}

function lookup(scope: Record<string, unknown>, name: string, path: string): unknown {
  if (!(name in scope)) throw new ReferenceError(`\${${name}${path}}: nothing is saved as ${name}`);
  let v: unknown = scope[name];
  for (const part of path.split('.').slice(1)) {
    if (v === null || typeof v !== 'object' || !(part in (v as object))) {
      const has = v !== null && typeof v === 'object' ? ` (it has ${Object.keys(v).slice(0, 12).join(', ')})` : '';
      throw new ReferenceError(`\${${name}${path}}: ${name}${path} is not in the saved answer${has}`);
    }
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** `text` with its references written in (each through `encode`) and `$${` read as `${`. */
function fillText(text: string, scope: Record<string, unknown>, encode: (s: string) => string): string {
  return text.replace(TOKEN, (token, name: string | undefined, path: string | undefined) => (name === undefined ? '${' : encode(asText(lookup(scope, name, path ?? '')))));
}

/** `value` with every `${name.path}` filled from `scope`; a string that is one whole reference takes the referenced value's type. */
export function resolveRefs(value: unknown, scope: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_REF.exec(value);
    if (whole) return lookup(scope, whole[1]!, whole[2] ?? '');
    return fillText(value, scope, (s) => s);
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, scope));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, scope)]));
  return value;
}

/**
 * A request's path with its references filled in, each value percent-encoded as one
 * segment or query value: a value can never add `/`, `\`, `?` or `#`, so where the
 * request goes is decided by the file's own text, which is checked before the run.
 */
export const resolvePath = (path: string, scope: Record<string, unknown>): string => fillText(path, scope, encodeURIComponent);

/** A path as the check before a run sees it: each reference a plain segment, `$${` its literal `${`. */
export const pathTemplate = (path: string): string => path.replace(TOKEN, (_, name: string | undefined) => (name === undefined ? '${' : 'ref'));

// --- subsets ----------------------------------------------------------------------

/** One place where an answer differs from what was expected. */
export interface Mismatch {
  path: string;
  expected: unknown;
  got: unknown;
}

/**
 * Where `got` fails to contain `expected`: objects by key (a dotted key reads a path),
 * arrays element by element (an expected array may be shorter), other values equal.
 */
export function subsetMismatches(expected: unknown, got: unknown, at = ''): Mismatch[] {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) return [{ path: at || '(body)', expected, got }];
    return Object.entries(expected).flatMap(([k, v]) => {
      const path = at ? `${at}.${k}` : k;
      return subsetMismatches(v, readPath(got, k), path);
    });
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(got)) return [{ path: at || '(body)', expected, got }];
    return expected.flatMap((v, i) => (i < got.length ? subsetMismatches(v, got[i], `${at}.${i}`.replace(/^\./, '')) : [{ path: `${at}.${i}`.replace(/^\./, ''), expected: v, got: undefined }]));
  }
  return Object.is(expected, got) ? [] : [{ path: at || '(body)', expected, got }];
}

/** `obj` at a dotted path (`data.object.id`), or undefined. */
export function readPath(obj: unknown, path: string): unknown {
  if (obj !== null && typeof obj === 'object' && path in (obj as object)) return (obj as Record<string, unknown>)[path];
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Whether an event type matches a type or glob (`*` within a segment, a lone `*` every type). */
export function typeMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^.]*')}$`);
  return re.test(type);
}
