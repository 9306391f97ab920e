// Running a scenario file against a server over its real API (docs/scenarios.md): each
// step in order, its references filled from what earlier steps saved, its expectations
// checked; the run stops at the first failed step (later steps would only fail on what
// it did not make). It is a client like any integration: it holds the sandbox's keys and
// talks HTTP, so the same file runs against `payctl serve` here or a server elsewhere.
// Every call stays on that server (a path that would leave it is refused, redirects are
// not followed), carries the step's deadline, and ends: a stream is read until the step
// has what it expects or its timeout.
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_STEP_TIMEOUT,
  DEFAULT_WAIT,
  kindOf,
  REQUEST_LINE,
  resolvePath,
  resolveRefs,
  stepTimeoutMs,
  subsetMismatches,
  typeMatches,
  ReferenceError,
  type EventExpectation,
  type Mismatch,
  type Scenario,
  type Step,
} from '../domain/scenarios.js';
import { parseDuration } from '../domain/time.js';
import { urlOnServer } from '../domain/scenario-paths.js';
import { readEventStream, type StreamMessage } from './scenario-stream.js';
import type { Permission } from '../domain/permissions.js';
import { defaultKey, type KeyChoice } from './route-keys.js';
import type { LoadedScenario } from './scenario-file.js';
import { TEST_CLOCK } from '../lib/test-clock.js';

/** The sandbox a run acts in: its ids, a key per permission kind, and what its creation answered (for ${demo.*}). */
export interface SandboxHandle {
  group_id: string;
  linked_account_id: string;
  processor_id: string;
  keys: Partial<Record<Permission, string>>;
  /** The creation answer without its keys. */
  demo: Record<string, unknown>;
}

export interface RunTarget {
  url: string;
  sandbox: SandboxHandle;
  adminToken?: string;
  /** The environment variables the file may read as ${env.NAME} (only those: see scenario-file.ts). */
  env?: Record<string, string>;
  /** A step's timeout when it sets none (default 30s). */
  stepTimeoutMs?: number;
  /** Record the sandbox's calls while the steps run (the result carries the scenario file they make). */
  record?: boolean;
  /** Webhooks received by the run's receiver (expect_webhooks); absent when the run has none. */
  webhooks?: WebhookSource;
}

/** What expect_webhooks reads: the verified deliveries so far, and a wait for more. */
export interface WebhookSource {
  /** Called before the first step when the file has an expect_webhooks step: make the endpoint that delivers to the receiver. */
  start(call: (method: string, path: string, body: unknown, key: KeyChoice) => Promise<ApiAnswer>): Promise<void>;
  received(): Array<{ type: string; [k: string]: unknown }>;
}

export interface StepResult {
  /** Dotted path of the step in the file (steps.3, steps.5.steps.0) and the repetition. */
  path: string;
  line: number;
  kind: string;
  title: string;
  ok: boolean;
  ms: number;
  message?: string;
  mismatches?: Mismatch[];
}

export interface ScenarioResult {
  name: string;
  group_id: string;
  ok: boolean;
  ms: number;
  steps: StepResult[];
  /** With record: the scenario file the run's calls make. */
  recording?: string;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  text: string;
}

class StepFailure extends Error {
  constructor(
    message: string,
    readonly mismatches?: Mismatch[],
  ) {
    super(message);
  }
}

const POLL_MS = 100;
const DEFAULT_TIMEOUT_MS = stepTimeoutMs(DEFAULT_STEP_TIMEOUT) as number;

/** Whether a step (or one inside a repeat) is of `kind`. */
const hasStep = (steps: Step[], kind: string): boolean => steps.some((st) => kindOf(st) === kind || ('repeat' in st && hasStep(st.steps, kind)));
const seconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)}s`;

export async function runScenario(loaded: LoadedScenario, target: RunTarget, onStep: (r: StepResult) => void = () => {}): Promise<ScenarioResult> {
  const { scenario, lines } = loaded;
  const { sandbox } = target;
  const started = performance.now();
  const scope: Record<string, unknown> = {
    demo: sandbox.demo,
    sandbox: { group_id: sandbox.group_id, linked_account_id: sandbox.linked_account_id, processor_id: sandbox.processor_id },
    env: { ...(target.env ?? {}) },
  };
  const results: StepResult[] = [];
  const runTimeout = target.stepTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  /** The running step's deadline, and its timeout (for the message when it passes). */
  let deadline = { signal: AbortSignal.timeout(runTimeout), ms: runTimeout };

  /**
   * An API call; `own` marks the runner's own calls (event polling, clock catch-up, the
   * recording), which a recording leaves out. A stream answer is read until `enough` holds
   * or the step's deadline, its messages being the body.
   */
  const call = async (
    method: string,
    path: string,
    body: unknown,
    key: KeyChoice,
    headers: Record<string, string> = {},
    own = false,
    enough: (messages: StreamMessage[]) => boolean = () => false,
  ): Promise<ApiAnswer> => {
    const url = urlOnServer(path, target.url);
    if (!(url instanceof URL)) throw new StepFailure(url.error);
    const auth = key === 'none' ? undefined : key === 'admin' ? target.adminToken : sandbox.keys[key];
    if (key !== 'none' && auth === undefined) throw new StepFailure(key === 'admin' ? 'this step needs the sandbox admin token (--admin-token or PAYCTL_ADMIN_TOKEN)' : `the sandbox has no ${key} key`);
    const has = (h: string) => Object.keys(headers).some((k) => k.toLowerCase() === h);
    const { signal } = deadline;
    const timedOut = () =>
      new StepFailure(`no answer within ${seconds(deadline.ms)} (the step's timeout: set timeout: on the step, or --step-timeout for the run; at most 10m)`);
    let res: Response;
    try {
      res = await fetch(url, {
        signal,
        // A redirect would be followed with the step's headers; the server under test is the only host a step talks to.
        redirect: 'manual',
        method,
        headers: {
          ...(auth !== undefined && !has('authorization') ? { Authorization: auth } : {}),
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          // Names the sandbox on public calls (tokenize, pay pages) too, so a recording of it has them.
          'Payctl-Sandbox': sandbox.group_id,
          ...(own ? { 'Payctl-Record': 'off' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      if (signal.aborted) throw timedOut();
      throw err;
    }
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      const { messages, text } = await readEventStream(res, signal, enough);
      return { status: res.status, body: messages, text };
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (signal.aborted) throw timedOut();
      throw err;
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body: parsed, text };
  };

  const recordingPath = `/api/v1/sandboxes/${sandbox.group_id}/recording`;
  if (target.record) {
    const r = await call('POST', recordingPath, undefined, 'manage_transactions', {}, true);
    if (r.status !== 201) throw new Error(`starting the recording answered ${r.status}: ${r.text.slice(0, 300)}`);
  }
  // The receiver is made before the first step, so expect_webhooks sees every webhook
  // since the run began, wherever the step stands.
  const webhooks = hasStep(scenario.steps, 'expect_webhooks') ? target.webhooks : undefined;
  if (webhooks) await webhooks.start((m, p, b, k) => call(m, p, b, k, {}, true));

  /** The ids of the sandbox's events so far: expectations count events after the run started. */
  const before = new Set((await allEvents()).map((e) => e.id));

  async function allEvents(): Promise<Array<{ id: string; type: string; [k: string]: unknown }>> {
    const out: Array<{ id: string; type: string }> = [];
    let after: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ limit: '1000', ...(after ? { starting_after: after } : {}) });
      const r = await call('GET', `/api/v1/groups/${sandbox.group_id}/events?${q}`, undefined, 'manage_webhooks', {}, true);
      if (r.status !== 200) throw new StepFailure(`listing events answered ${r.status}: ${r.text.slice(0, 300)}`);
      const page = (r.body as { data: { items: Array<{ id: string; type: string }>; has_more: boolean } }).data;
      out.push(...page.items);
      if (!page.has_more || page.items.length === 0) return out;
      after = page.items[page.items.length - 1]!.id;
    }
  }

  const fillPath = (p: string) =>
    p.replaceAll('{group_id}', sandbox.group_id).replaceAll('{linked_account_id}', sandbox.linked_account_id).replaceAll('{processor_id}', sandbox.processor_id);

  async function runRequest(step: Extract<Step, { request: string }>): Promise<string> {
    const [, method, rawPath] = REQUEST_LINE.exec(step.request)!;
    const path = fillPath(resolvePath(rawPath!, scope));
    const body = step.body === undefined ? undefined : resolveRefs(step.body, scope);
    const headers = step.headers ? (resolveRefs(step.headers, scope) as Record<string, string>) : {};
    const key = step.key ?? (await defaultKey(method!, path));
    const wanted = step.expect?.body === undefined ? undefined : resolveRefs(step.expect.body, scope);
    const answer = await call(method!, path, body, key, headers, false, (messages) => wanted !== undefined && subsetMismatches(wanted, messages).length === 0);
    const expected = step.expect?.status;
    if (expected !== undefined ? answer.status !== expected : answer.status < 200 || answer.status > 299) {
      throw new StepFailure(`${method} ${rawPath} answered ${answer.status}`, [{ path: 'status', expected: expected ?? '2xx', got: answer.status }, ...errorOf(answer)]);
    }
    if (wanted !== undefined) {
      const mismatches = subsetMismatches(wanted, answer.body);
      if (mismatches.length > 0) throw new StepFailure(`${method} ${rawPath} answered ${answer.status}, not the expected body`, mismatches);
    }
    if (step.save) scope[step.save] = answer.body;
    return `${method} ${rawPath} → ${answer.status}`;
  }

  async function runClock(step: Extract<Step, { clock: unknown }>): Promise<string> {
    const move = resolveRefs(step.clock, scope);
    const r = await call('POST', `/api/v1/sandboxes/${sandbox.group_id}/clock`, move, 'manage_transactions');
    if (r.status !== 200 && r.status !== 202) throw new StepFailure(`moving the clock answered ${r.status}`, errorOf(r));
    let state = r.body as { now: string; catch_up?: { status: string } };
    while (state.catch_up?.status === 'running') {
      await sleep(POLL_MS);
      if (deadline.signal.aborted) throw new StepFailure(`the clock was still catching up after ${seconds(deadline.ms)} (the step's timeout: set timeout: on the step, or --step-timeout)`);
      state = (await call('GET', `/api/v1/sandboxes/${sandbox.group_id}/clock`, undefined, 'manage_transactions', {}, true)).body as typeof state;
    }
    return `clock ${JSON.stringify(move).replace(/[{}"]/g, '')} → ${state.now}`;
  }

  async function runFault(step: Extract<Step, { fault: unknown }>): Promise<string> {
    const rule = resolveRefs(step.fault, scope) as Record<string, unknown>;
    const { endpoint, ...fields } = rule;
    const r = endpoint === undefined
      ? await call('POST', `/api/v1/sandboxes/${sandbox.group_id}/faults`, rule, 'manage_transactions')
      : await call('POST', `/api/v1/groups/${sandbox.group_id}/webhook_endpoints/${String(endpoint)}/faults`, fields, 'manage_webhooks');
    if (r.status !== 201) throw new StepFailure(`adding the fault rule answered ${r.status}`, errorOf(r));
    return `fault ${String(rule.operation ?? rule.path ?? `endpoint ${String(endpoint)}`)} ${String(rule.action)}`;
  }

  async function runExpect(list: EventExpectation[], source: () => Promise<Array<{ type: string }>>, what: string): Promise<string> {
    const wanted = list.map((e) => resolveRefs(e, scope) as EventExpectation);
    const waitMs = Math.max(...wanted.map((e) => parseDuration(e.timeout ?? DEFAULT_WAIT)));
    const deadline = performance.now() + waitMs;
    // Polled: deliveries and background work land after the step that caused them.
    for (;;) {
      const seen = await source();
      const verdicts = wanted.map((e) => {
        const typed = seen.filter((x) => typeMatches(e.type, x.type));
        const matching = typed.filter((x) => subsetMismatches(e.match ?? {}, x).length === 0);
        const ok = e.count === undefined ? matching.length > 0 : matching.length === e.count;
        return { e, typed, matching, ok, final: e.count !== undefined && matching.length > e.count };
      });
      // count: 0 holds only once the whole timeout passed with none; other counts as soon as they are met.
      const waitForNone = wanted.some((e) => e.count === 0) && performance.now() < deadline;
      if (verdicts.every((v) => v.ok) && !waitForNone) return `${what} ${wanted.map((e) => `${e.type}${e.count !== undefined ? ` ×${e.count}` : ''}`).join(', ')}`;
      if (performance.now() >= deadline || verdicts.some((v) => v.final)) {
        const bad = verdicts.find((v) => !v.ok)!;
        const closest = bad.typed[bad.typed.length - 1];
        throw new StepFailure(
          `${what}: ${bad.e.count ?? 'at least 1'} ${bad.e.type}${bad.e.match ? ' matching' : ''} expected, ${bad.matching.length} seen (${bad.typed.length} of that type; ${seen.length} in all)${bad.final ? '' : ` after waiting ${Math.round(waitMs / 1000)}s`}`,
          [
            { path: 'count', expected: bad.e.count ?? '≥1', got: bad.matching.length },
            ...(bad.e.match && closest ? subsetMismatches(bad.e.match, closest).map((m) => ({ ...m, path: `last ${bad.e.type}: ${m.path}` })) : []),
          ],
        );
      }
      await sleep(POLL_MS);
    }
  }

  const newEvents = async () => (await allEvents()).filter((e) => !before.has(e.id)).reverse();

  async function runStep(step: Step, path: string, rep: Record<string, unknown> | undefined): Promise<boolean> {
    const kind = kindOf(step)!;
    if (kind === 'repeat') {
      const r = step as Extract<Step, { repeat: number }>;
      for (let i = 0; i < r.repeat; i++) {
        for (const [j, inner] of r.steps.entries()) {
          scope.repeat = { index: i, count: r.repeat };
          if (!(await runStep(inner, `${path}.steps.${j}`, { index: i }))) return false;
        }
      }
      scope.repeat = rep;
      return true;
    }
    const t0 = performance.now();
    const own = 'timeout' in step && typeof step.timeout === 'string' ? (stepTimeoutMs(step.timeout) as number) : undefined;
    // An expectation waits as long as it says; its step's deadline leaves each poll the run's timeout on top.
    const waits = 'expect_events' in step ? step.expect_events : 'expect_webhooks' in step ? step.expect_webhooks : [];
    const ms = (own ?? runTimeout) + Math.max(0, ...waits.map((e) => parseDuration(e.timeout ?? DEFAULT_WAIT)));
    deadline = { signal: AbortSignal.timeout(ms), ms: own ?? runTimeout };
    const result: StepResult = { path, line: lines.get(path) ?? 0, kind, title: step.name ?? kind, ok: true, ms: 0 };
    if (rep) result.title += ` #${Number(rep.index) + 1}`;
    try {
      let done: string;
      if ('request' in step) done = await runRequest(step);
      else if ('clock' in step) done = await runClock(step);
      else if ('fault' in step) done = await runFault(step);
      else if ('expect_events' in step) done = await runExpect(step.expect_events, newEvents, 'events');
      else {
        if (!webhooks) throw new StepFailure('expect_webhooks needs the run\'s webhook receiver');
        done = await runExpect((step as Extract<Step, { expect_webhooks: unknown }>).expect_webhooks, async () => webhooks.received(), 'webhooks');
      }
      result.message = done;
      if (step.name) result.title = `${step.name}${rep ? ` #${Number(rep.index) + 1}` : ''}`;
    } catch (err) {
      result.ok = false;
      if (err instanceof StepFailure || err instanceof ReferenceError) {
        result.message = err.message;
        if (err instanceof StepFailure && err.mismatches) result.mismatches = err.mismatches;
      } else if (err instanceof TypeError && /fetch failed/.test(err.message)) {
        result.message = `no answer from ${target.url}: ${(err.cause as Error | undefined)?.message ?? err.message}`;
      } else throw err;
    }
    result.ms = Math.round(performance.now() - t0);
    results.push(result);
    onStep(result);
    return result.ok;
  }

  let ok = true;
  for (const [i, step] of scenario.steps.entries()) {
    if (!(await runStep(step, `steps.${i}`, undefined))) {
      ok = false;
      break;
    }
  }
  let recording: string | undefined;
  deadline = { signal: AbortSignal.timeout(runTimeout), ms: runTimeout };
  if (target.record) {
    await call('DELETE', recordingPath, undefined, 'manage_transactions', {}, true);
    recording = (await call('GET', `${recordingPath}?format=scenario`, undefined, 'manage_transactions', {}, true)).text;
  }
  return { name: scenario.name, group_id: sandbox.group_id, ok, ms: Math.round(performance.now() - started), steps: results, ...(recording !== undefined ? { recording } : {}) };
}

/** An error answer's type and fields, as mismatches to show beside the status. */
function errorOf(answer: ApiAnswer): Mismatch[] {
  const err = (answer.body as { error?: { type?: string; message?: string; fields?: Array<{ path: string; message: string }> } } | undefined)?.error;
  if (!err) return [];
  if (err.fields?.length) return err.fields.map((f) => ({ path: `error (${err.type}) ${f.path}`, expected: undefined, got: f.message }));
  return [{ path: 'error', expected: undefined, got: `${err.type}: ${err.message}` }];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh sandbox made through the API with the admin token (its keys come in the answer). */
export async function createSandboxOverApi(url: string, adminToken: string, spec: Scenario['sandbox'], name: string): Promise<SandboxHandle> {
  const res = await fetch(new URL('/api/v1/sandboxes', url), {
    method: 'POST',
    headers: { Authorization: adminToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: spec?.name ?? name.slice(0, 100), ...(spec?.demo !== undefined ? { demo: spec.demo } : {}), clock: { ...TEST_CLOCK, ...(spec?.clock ? { time: spec.clock } : {}) } }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201) throw new Error(`creating the sandbox answered ${res.status}: ${JSON.stringify(body)}`);
  return handleOf(body);
}

/** The handle of a sandbox from its creation answer (the shape `payctl init --demo --json` prints). */
export function handleOf(created: Record<string, unknown>): SandboxHandle {
  const { keys, ...demo } = created as { keys: Record<Permission, string> } & Record<string, unknown>;
  return {
    group_id: String(created.group_id),
    linked_account_id: String(created.linked_account_id),
    processor_id: String(created.processor_id),
    keys,
    demo,
  };
}
