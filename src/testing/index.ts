// `payctl/testing`: payctl in a test suite in one import. `startPayctl()` starts its own
// `payctl serve` (a free port, a temporary SQLite database) or uses a running one (url /
// PAYCTL_URL), and waits on /ready; `sandbox()` makes a tenant of its own per test (keys,
// data, clock), with the process's webhook collector as an endpoint, a typed client that
// fills the group's ids and the key each operation needs, its clock and its faults.
// Sandboxes are independent, so tests using them run concurrently.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type TypedClient } from '../client/index.js';
import { OPERATION_AUTH, type components, type paths } from '../client/api.js';
import { packageRoot } from '../lib/paths.js';
import { ENV } from '../config/env.js';
import { TEST_CLOCK } from '../lib/test-clock.js';
import { collector, type Webhooks } from './webhooks.js';
import type { SandboxPaths } from './sandbox-paths.js';

export type { Webhooks, WebhookEvent, EventMatcher, NextOptions, NoneOptions, AllOptions } from './webhooks.js';
export type { SandboxPaths } from './sandbox-paths.js';
export type { paths, components } from '../client/api.js';
export type { TypedClient } from '../client/index.js';

type Schemas = components['schemas'];
export type GroupClock = Schemas['GroupClock'];
export type FaultRule = Schemas['FaultRuleRequest'];
export type FaultRuleAnswer = Schemas['FaultRule'];

export interface StartOptions {
  /** A running server to use (else PAYCTL_URL; else a server of its own is started). */
  url?: string;
  /** Its sandbox admin token (else PAYCTL_ADMIN_TOKEN; a server of its own gets a random one). */
  adminToken?: string;
  /** A server of its own: more `payctl serve` flags (e.g. ['--tick', '0']). */
  args?: string[];
  /** A server of its own: more environment (PAYCTL_…) for it. */
  env?: Record<string, string>;
  /** How long to wait for /ready, in ms (default 60 000). */
  readyTimeout?: number;
}

export interface SandboxOptions {
  /** Add the demo data of `payctl init --demo` (a customer with a stored card, products, plans …). */
  demo?: boolean;
  /**
   * The sandbox's clock: a start time (RFC 3339 or a date: frozen there), or `{ time, mode, rate }`.
   * Default: frozen at 2030-01-15T12:00:00.000Z (docs/testing.md "Time in tests"); `{ mode: 'running' }` runs from real time.
   */
  clock?: string | { time?: string; mode?: 'running' | 'frozen' | 'accelerated'; rate?: number };
  name?: string;
  /** Make the process's webhook collector an endpoint of the sandbox (default true). */
  webhooks?: boolean;
}

/** The demo objects' ids (`sandbox({ demo: true })`). */
export interface DemoIds {
  processor_id: string;
  linked_account_id: string;
  customer_id: string;
  card_id: string;
  product_ids: string[];
  plan_ids: string[];
  subscription_ids: string[];
  invoice_ids: string[];
  [ids: string]: string | string[];
}

export interface RequestOptions {
  /** A JSON body. */
  body?: unknown;
  /** Query parameters (arrays are sent comma-separated). */
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  /** Another Authorization value than the one the operation needs (null: none). */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface Answer<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
  headers: Headers;
  /** The parsed JSON answer (the text when it is not JSON). */
  body: T;
}

/** A payctl server to make sandboxes on. */
export interface Payctl {
  url: string;
  adminToken: string;
  /** The process id of the server this started (undefined for a running server given by url). */
  pid?: number;
  /** A typed client with the admin token (sandboxes, forks). */
  client: TypedClient<paths>;
  sandbox<O extends SandboxOptions>(opts?: O): Promise<Sandbox<O extends { demo: true } ? DemoIds : undefined>>;
  /** Stop the server this started (a running server given by url is left running). */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Every call of the kit on a connection of its own: a suite's hundreds of concurrent
 * tests on a busy machine otherwise reuse idle keep-alive connections the server is
 * closing at that moment (its idle timeout, 5 s, racing a late timer), and a call fails
 * with "other side closed" that the server never saw. A loopback connect costs ~0.1 ms.
 */
const OWN_CONNECTION = { connection: 'close' } as const;

/** `METHOD /template` of the operation a concrete path is (templates tried as patterns). */
const OPERATIONS = Object.keys(OPERATION_AUTH).map((op) => {
  const [method, template] = op.split(' ') as [string, string];
  const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[a-z_]+\}/g, '[^/]+')}$`);
  return { op, method, pattern, literal: template.split('/').filter((s) => !s.startsWith('{')).length };
})
  // A literal segment wins over a parameter (/events/stream before /events/{event_id}).
  .sort((a, b) => b.literal - a.literal);

function operationOf(method: string, pathname: string): string | undefined {
  return OPERATIONS.find((o) => o.method === method && o.pattern.test(pathname))?.op;
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/** A failed call of the kit's own (creating, moving, dropping): the answer's status and message. */
function failed(what: string, a: Answer): Error {
  const message = (a.body as { error?: { message?: string } } | undefined)?.error?.message ?? JSON.stringify(a.body);
  return new Error(`payctl: ${what} answered ${a.status}: ${message}`);
}

export class Sandbox<Demo extends DemoIds | undefined = DemoIds | undefined> {
  readonly groupId: string;
  readonly processorId: string;
  readonly linkedAccountId: string;
  /** One API key per permission kind. */
  readonly keys: Record<string, string>;
  /** The demo objects' ids, with `demo: true`. */
  readonly demo: Demo;
  /** The sandbox's answer at creation, as the API gave it. */
  readonly created: Schemas['Sandbox'];
  /** The verified webhooks of this sandbox (the collector is its endpoint unless `webhooks: false`). */
  readonly webhooks: Webhooks;
  /** A typed client: {group_id} and {linked_account_id} are filled, each call carries the key its operation needs. */
  readonly client: TypedClient<SandboxPaths>;
  readonly clock: {
    /** Move this sandbox's clock forward (`32d`, `12h`, `1d12h`) and wait until its due work is done. */
    advance(duration: string): Promise<GroupClock>;
    /** Move it to a time (never backwards) and wait until its due work is done. */
    set(time: string): Promise<GroupClock>;
    /** The sandbox's time now (RFC 3339). */
    now(): Promise<string>;
  };
  readonly faults: {
    /** Add a fault rule (docs/faults.md): its matching calls get latency, an error, a dropped answer or a decline. */
    add(rule: FaultRule): Promise<FaultRuleAnswer>;
    list(): Promise<FaultRuleAnswer[]>;
    remove(id: string): Promise<void>;
  };

  constructor(
    private readonly server: { url: string; adminToken: string },
    created: Schemas['Sandbox'],
    webhooks: Webhooks,
    private readonly onDrop: () => void,
  ) {
    this.created = created;
    this.groupId = created.group_id;
    this.processorId = created.processor_id;
    this.linkedAccountId = created.linked_account_id;
    this.keys = created.keys;
    this.webhooks = webhooks;
    const { group_id: _g, name: _n, status: _s, keys: _k, clock: _c, clock_mode: _m, clock_rate: _r, created_at: _a, ...ids } = created as Record<string, unknown>;
    this.demo = ('customer_id' in ids ? ids : undefined) as Demo;
    this.client = this.sandboxClient();
    const move = async (body: { advance: string } | { set: string }) => {
      const a = await this.request('POST', '/api/v1/sandboxes/{group_id}/clock', { body });
      if (a.status !== 200 && a.status !== 202) throw failed(`moving the clock of sandbox ${this.groupId}`, a);
      return a.status === 200 ? (a.body as GroupClock) : this.caughtUp();
    };
    this.clock = {
      advance: (duration) => move({ advance: duration }),
      set: (time) => move({ set: time }),
      now: async () => (await this.clockState()).now,
    };
    this.faults = {
      add: async (rule) => this.expect('adding a fault rule', 201, this.request('POST', '/api/v1/sandboxes/{group_id}/faults', { body: rule })),
      list: async () => (await this.expect<{ data: FaultRuleAnswer[] }>('listing fault rules', 200, this.request('GET', '/api/v1/sandboxes/{group_id}/faults'))).data,
      remove: async (id) => void (await this.expect('removing a fault rule', 200, this.request('DELETE', `/api/v1/sandboxes/{group_id}/faults/${encodeURIComponent(id)}`))),
    };
  }

  /** The path with this sandbox's {group_id} and {linked_account_id}. */
  fill(template: string): string {
    return template.replaceAll('{group_id}', encodeURIComponent(this.groupId)).replaceAll('{linked_account_id}', encodeURIComponent(this.linkedAccountId));
  }

  /** The Authorization an operation needs: a key with its permission, else the admin token where it takes one. */
  keyFor(method: string, pathname: string): string | undefined {
    const op = operationOf(method.toUpperCase(), pathname);
    const auth = op ? OPERATION_AUTH[op] : undefined;
    if (!auth) return undefined;
    const permission = auth.key[0];
    if (permission !== undefined) return this.keys[permission];
    return auth.admin ? this.server.adminToken : undefined;
  }

  /** Any call: the path's {group_id} and {linked_account_id} filled, the operation's key sent (unless `key`). */
  async request<T = any>(method: string, template: string, opts: RequestOptions = {}): Promise<Answer<T>> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const pathname = this.fill(template);
    const url = new URL(pathname, this.server.url);
    for (const [name, value] of Object.entries(opts.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const key = opts.key === undefined ? this.keyFor(method, url.pathname) : opts.key;
    const headers: Record<string, string> = { ...OWN_CONNECTION, ...(key ? { authorization: key } : {}), ...(opts.headers ?? {}) };
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    return (await answerOf(await fetch(url, { method: method.toUpperCase(), headers, body }))) as Answer<T>;
  }

  /** Drop the sandbox and every row of it; its webhooks stop arriving. */
  async drop(): Promise<void> {
    this.onDrop();
    const a = await this.request('DELETE', '/api/v1/sandboxes/{group_id}');
    if (a.status !== 200 && a.status !== 404) throw failed(`dropping sandbox ${this.groupId}`, a);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.drop();
  }

  private async expect<T>(what: string, status: number, call: Promise<Answer>): Promise<T> {
    const a = await call;
    if (a.status !== status) throw failed(what, a);
    return a.body as T;
  }

  private clockState(): Promise<GroupClock> {
    return this.expect(`reading the clock of sandbox ${this.groupId}`, 200, this.request('GET', '/api/v1/sandboxes/{group_id}/clock'));
  }

  /** After a 202 (the due work goes on in the server): the clock once its catch-up is done. */
  private async caughtUp(): Promise<GroupClock> {
    for (;;) {
      const state = await this.clockState();
      if (state.catch_up?.status !== 'running') return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private sandboxClient(): TypedClient<SandboxPaths> {
    const base = createClient<SandboxPaths>({ baseUrl: this.server.url, headers: OWN_CONNECTION });
    base.use({
      onRequest: ({ request, schemaPath }) => {
        if (request.headers.has('authorization')) return undefined;
        const key = this.keyFor(request.method, this.fill(schemaPath));
        if (key) request.headers.set('authorization', key);
        return request;
      },
    });
    const ids = { group_id: this.groupId, linked_account_id: this.linkedAccountId };
    // Each method call gets the sandbox's ids as default path parameters.
    return new Proxy(base, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string' || !/^[A-Z]+$/.test(prop) || typeof value !== 'function') return value;
        return (url: string, init: { params?: { path?: Record<string, unknown> } } = {}) =>
          (value as (u: string, i: unknown) => unknown).call(target, url, { ...init, params: { ...init.params, path: { ...ids, ...init.params?.path } } });
      },
    });
  }
}

/** A server of its own: `payctl serve` on a free port over a temporary SQLite database. */
async function spawnServer(opts: StartOptions, adminToken: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-testing-'));
  const args = [path.join(packageRoot, 'bin/run.js'), 'serve', '--port', '0', '--db', path.join(dir, 'payctl.db'), '--access-log', 'off', ...(opts.args ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, NO_COLOR: '1', ...(opts.env ?? {}), [ENV.adminToken]: adminToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test process that ends without stop() leaves no server behind.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /payctl serving (http:\/\/[^\s/]+)\/api\/v1/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`payctl serve exited before listening:\n${out}`)));
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(kill, 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once GET /ready answers 200; rejects with its last answer after `timeoutMs`. */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    try {
      const res = await fetch(new URL('/ready', url));
      const text = await res.text();
      if (res.status === 200) return;
      last = `${res.status} ${text}`;
    } catch (err) {
      last = err instanceof Error ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ''}` : String(err);
    }
    if (Date.now() > deadline) throw new Error(`payctl at ${url} is not ready after ${timeoutMs} ms: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A payctl server for a test suite: its own, or a running one (url / PAYCTL_URL). */
export async function startPayctl(opts: StartOptions = {}): Promise<Payctl> {
  const given = opts.url ?? (process.env[ENV.testingUrl] || undefined);
  let adminToken = opts.adminToken ?? (process.env[ENV.adminToken] || undefined);
  let url: string;
  let pid: number | undefined;
  let stopServer: () => Promise<void> = async () => undefined;
  if (given !== undefined) {
    if (!adminToken) throw new Error(`payctl/testing: a running server (${given}) needs its sandbox admin token: pass adminToken or set ${ENV.adminToken}`);
    url = given.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  } else {
    adminToken ??= `padm_${randomBytes(24).toString('hex')}`;
    const own = await spawnServer(opts, adminToken);
    url = own.url;
    pid = own.pid;
    stopServer = own.stop;
  }
  try {
    await waitReady(url, opts.readyTimeout);
  } catch (err) {
    await stopServer();
    throw err;
  }
  const server = { url, adminToken };
  const client = createClient({ baseUrl: url, key: adminToken, headers: OWN_CONNECTION });
  let stopped: Promise<void> | undefined;
  const payctl: Payctl = {
    url,
    adminToken,
    ...(pid !== undefined ? { pid } : {}),
    client,
    async sandbox(o?: SandboxOptions) {
      const { webhooks = true, clock, ...rest } = o ?? {};
      // Frozen unless told otherwise, at the anchor unless given a time: the same dates on every run.
      // A clock asked to run without a time runs from the platform's (real) time.
      const asked = typeof clock === 'string' ? { time: clock } : clock;
      const body = { ...rest, clock: asked?.mode && asked.mode !== 'frozen' ? asked : { ...TEST_CLOCK, ...asked } };
      const created = await client.POST('/api/v1/sandboxes', { body });
      if (!created.data) throw failed('creating a sandbox', { status: created.response.status, headers: created.response.headers, body: created.error });
      const sb = created.data;
      const inbox = webhooks ? await openInbox(url, sb) : noWebhooks(sb.group_id);
      return new Sandbox(server, sb, inbox, () => void (webhooks && collector().then((c) => c.close(sb.group_id)))) as never;
    },
    stop: () => (stopped ??= stopServer()),
    [Symbol.asyncDispose]: () => payctl.stop(),
  };
  return payctl;
}

/** The collector's inbox for a new sandbox, and the sandbox's endpoint pointing at it (every event type). */
async function openInbox(url: string, sb: Schemas['Sandbox']): Promise<Webhooks> {
  const c = await collector();
  const endpoints = createClient({ baseUrl: url, key: sb.keys.manage_webhooks, headers: OWN_CONNECTION });
  const r = await endpoints.POST('/api/v1/groups/{group_id}/webhook_endpoints', {
    params: { path: { group_id: sb.group_id } },
    body: { url: c.urlOf(sb.group_id), enabled_events: ['*'], description: 'payctl/testing webhook collector' },
  });
  if (!r.data?.secret) throw failed(`adding the webhook collector to sandbox ${sb.group_id}`, { status: r.response.status, headers: r.response.headers, body: r.error });
  return c.open(sb.group_id, r.data.secret);
}

/** `webhooks: false`: every use says how to get them. */
function noWebhooks(groupId: string): Webhooks {
  const refuse = (): never => {
    throw new Error(`sandbox ${groupId} was made with webhooks: false: it has no webhook collector`);
  };
  return { next: async () => refuse(), none: async () => refuse(), all: refuse, clear: refuse };
}
