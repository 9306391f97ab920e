// A sandbox's recorded API calls, and the scenario file they make (docs/scenarios.md).
// Two pure rules: what is never kept (`redact`, from ./sensitive.ts: keys, webhook
// secrets, card and bank numbers, CVVs, tax ids — a card appears as the token that was
// used), and how calls become steps (`recordingToScenario`): literal ids become `${name.id}` references to
// the step whose answer first carried them, the sandbox's own ids `{group_id}` and its
// demo's `${demo.*}`, clock moves and fault rules become steps of their own, and every
// recorded status an `expect`. Recorded text is written with `${` escaped (`$${`), so a
// replay sends exactly what was recorded, never a reference the text happened to spell.
import { z } from 'zod';
import { timestamp } from './strings.js';
import { escapeText } from './scenario-text.js';

// What is never kept is one list for every output: ./sensitive.ts.
export { REDACTED, redact } from './sensitive.js';

export interface CallRecord {
  method: string;
  path: string;
  route: string;
  headers: Record<string, string> | null;
  body: unknown;
  status: number;
  answer: unknown;
}

export interface RecordingContext {
  name: string;
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  /** The sandbox's demo ids as its creation answered them, when it was made with demo data. */
  demo: Record<string, unknown> | null;
  /** The group's time when the recording started: the replay's sandbox clock. */
  started_at: string;
  /** The test cards with their fixed tokens (data/test-cards.json, read by the caller: the domain does no I/O). */
  test_cards: ReadonlyArray<{ number: string; token: string }>;
}

const CLOCK_ROUTE = 'POST /api/v1/sandboxes/:group_id/clock';
const FAULT_ROUTE = 'POST /api/v1/sandboxes/:group_id/faults';
const WEBHOOK_FAULT_ROUTE = 'POST /api/v1/groups/:group_id/webhook_endpoints/:endpoint_id/faults';
export const TOKENIZE_ROUTE = 'POST /api/v1/tokens';
/** A stream changes nothing and has no end: a replay reads events with expect_events instead. */
const STREAM_ROUTE = 'GET /api/v1/groups/:group_id/events/stream';

/** The fixed test token a minted card token stands for (the same test card), else tok_visa. */
function fixedTokenFor(answer: unknown, testCards: RecordingContext['test_cards']): string {
  const card = (answer as { card?: { first_six?: string; last_four?: string } } | null)?.card;
  const match = testCards.find((c) => card && c.number.startsWith(card.first_six ?? '') && c.number.endsWith(card.last_four ?? ''));
  return match?.token ?? ((answer as { type?: string } | null)?.type === 'bank_account' ? 'tok_ach' : 'tok_visa');
}

/** A path segment as its id reads (a malformed %-escape is kept as it came). */
function decodedSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

const singular = (s: string) => s.replace(/-/g, '_').replace(/ies$/, 'y').replace(/s$/, '');

/**
 * The steps of recorded calls, a call at a time (`step`), so a long recording is turned
 * into a scenario without holding it whole: a step keeps `save` only when a later step
 * refers to it, which is known at the end — so the calls are read twice, the first time
 * with `keep` unset (the names referred to are then `used`), the second with `keep` the
 * first pass's `used`, each step final as it comes.
 */
export function scenarioStepper(ctx: RecordingContext, keep?: ReadonlySet<string>) {
  // literal → [reference in a body, reference in a path]
  const refs = new Map<string, { body: string; path: string; name?: string }>();
  refs.set(ctx.group_id, { body: '${sandbox.group_id}', path: '{group_id}' });
  refs.set(ctx.processor_id, { body: '${sandbox.processor_id}', path: '{processor_id}' });
  refs.set(ctx.linked_account_id, { body: '${sandbox.linked_account_id}', path: '{linked_account_id}' });
  const walkDemo = (v: unknown, at: string): void => {
    if (typeof v === 'string' && !refs.has(v) && at) refs.set(v, { body: `\${demo.${at}}`, path: `\${demo.${at}}` });
    else if (Array.isArray(v)) v.forEach((x, i) => walkDemo(x, `${at}.${i}`));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walkDemo(x, at ? `${at}.${k}` : k);
  };
  if (ctx.demo) walkDemo(ctx.demo, '');
  const tokens = new Map<string, string>();
  const used = new Set<string>();
  const names = new Map<string, number>();
  let calls = 0;

  const replace = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const tok = tokens.get(v);
      if (tok) return tok;
      const r = refs.get(v);
      if (r?.name) used.add(r.name);
      return r ? r.body : escapeText(v);
    }
    if (Array.isArray(v)) return v.map(replace);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
    return v;
  };
  const replacePath = (path: string) =>
    path.split('/').map((seg) => {
      const r = refs.get(decodedSegment(seg));
      if (r?.name) used.add(r.name);
      return r ? r.path : escapeText(seg);
    }).join('/');

  /** The step a call makes (none: a tokenize call, a stream). */
  function step(c: CallRecord): Record<string, unknown> | undefined {
    calls++;
    const route = `${c.method} ${c.route}`;
    if (route === TOKENIZE_ROUTE) {
      // The card typed is never recorded: the token minted stands for the fixed test token of the same card.
      const minted = (c.answer as { token?: string } | null)?.token;
      if (c.status < 300 && minted) tokens.set(minted, fixedTokenFor(c.answer, ctx.test_cards));
      return undefined;
    }
    if (route === STREAM_ROUTE) return undefined;
    const ok = c.status >= 200 && c.status < 300;
    if (ok && route === CLOCK_ROUTE) return { clock: replace(c.body) };
    if (ok && route === FAULT_ROUTE) return { fault: replace(c.body) };
    if (ok && route === WEBHOOK_FAULT_ROUTE) {
      const endpoint = replacePath(c.path).split('/').at(-2);
      return { fault: { endpoint, ...(replace(c.body) as object) } };
    }
    const s: Record<string, unknown> = { request: `${c.method} ${replacePath(c.path)}` };
    if (c.body !== null && c.body !== undefined) s.body = replace(c.body);
    if (c.headers && Object.keys(c.headers).length > 0) s.headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, escapeText(v)]));
    s.expect = { status: c.status };
    // The ids (and public slugs) this answer carries first are the ones later steps refer to by this step's name.
    if (ok && c.answer !== null && typeof c.answer === 'object' && !Array.isArray(c.answer)) {
      const base = singular(c.route.split('/').filter((x) => x && !x.startsWith(':')).at(-1) ?? 'answer');
      const n = (names.get(base) ?? 0) + 1;
      const name = n === 1 ? base : `${base}_${n}`;
      let carries = false;
      for (const [k, v] of Object.entries(c.answer)) {
        if ((k === 'id' || k.endsWith('_id') || k === 'slug') && typeof v === 'string' && v.length >= 8 && !refs.has(v)) {
          refs.set(v, { body: `\${${name}.${k}}`, path: `\${${name}.${k}}`, name });
          carries = true;
        }
      }
      if (carries) {
        names.set(base, n);
        if (!keep || keep.has(name)) s.save = name;
      }
    }
    return s;
  }

  /** The scenario's fields other than its steps, once every call went through `step`. */
  const head = () => ({
    name: ctx.name,
    description: `Recorded from sandbox ${ctx.group_id}: ${calls} call${calls === 1 ? '' : 's'}; secrets are never recorded.`,
    sandbox: { ...(ctx.demo ? { demo: true } : {}), clock: ctx.started_at },
  });
  return { step, used, head };
}

/** A scenario (as a plain object, ready for YAML) of recorded calls held whole (a long recording: `scenarioStepper`). */
export function recordingToScenario(calls: CallRecord[], ctx: RecordingContext): Record<string, unknown> {
  const first = scenarioStepper(ctx);
  for (const c of calls) first.step(c);
  const second = scenarioStepper(ctx, first.used);
  const steps = calls.map((c) => second.step(c)).filter((s) => s !== undefined);
  return { ...second.head(), steps };
}

// --- the recording routes' shapes ---------------------------------------------------

export const recordingQuerySchema = z.strictObject({
  format: z.enum(['json', 'scenario'], { error: 'must be json or scenario' }).optional().describe('scenario: the scenario file the calls make (application/yaml); json (default): the calls'),
});

export const recordingSummarySchema = z
  .object({
    group_id: z.string(),
    recording: z.boolean().describe('Calls are being recorded now'),
    started_at: timestamp.describe("The group's time when the recording started"),
    stopped_at: timestamp.nullable(),
    calls: z.number().int().describe('Calls recorded'),
    dropped: z.number().int().describe("Calls made while recording that the request journal's bound dropped (it keeps a group's last 1,000 calls, at most 8 MiB: docs/journal.md)"),
  })
  .meta({ id: 'RecordingSummary' });

export const recordedCallSchema = z
  .object({
    method: z.string(),
    path: z.string(),
    route: z.string().describe('The route pattern'),
    headers: z.record(z.string(), z.string()).nullable().describe('Idempotency-Key and Payctl-Simulate when sent (never Authorization)'),
    body: z.unknown().describe('The request body, secrets taken out (null for a tokenize call: the card is never recorded)'),
    status: z.number().int(),
    answer: z.unknown().describe('The answer body, secrets taken out'),
    note: z.string().optional().describe('Why the body or answer was not kept: refused (nested too deep) or too large'),
  })
  .meta({ id: 'RecordedCall' });

export const recordingSchema = recordingSummarySchema.extend({ data: z.array(recordedCallSchema) }).meta({ id: 'Recording' });
