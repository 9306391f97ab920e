// `payctl/testing`: payctl in a test suite in one import. `startPayctl()` starts its own
// `payctl serve` (a free port, a temporary SQLite database) or uses a running one (url /
// PAYCTL_URL), and waits on /ready; `sandbox()` makes a tenant of its own per test (keys,
// data, clock), with the process's webhook collector as an endpoint, a typed client that
// fills the group's ids and the key each operation needs, its clock and its faults.
// Sandboxes are independent, so tests using them run concurrently.
import { randomBytes } from 'node:crypto';
import { createClient, type TypedClient } from '../client/index.js';
import { OPERATION_AUTH, type components, type paths } from '../client/api.js';
import { ENV } from '../config/env.js';
import type { Permission } from '../client/api.js';
import { TEST_CLOCK } from '../lib/test-clock.js';
import { collector, Inbox, type Webhooks } from './webhooks.js';
import type { SandboxPaths } from './sandbox-paths.js';
import { spawnServer } from './server-process.js';
import { traceableName } from './test-name.js';
import type { CheckedMethod, CheckedPath, RequestArgs } from './typed.js';
import { exportFile, importFile, reach, waitActive, type ImportOptions } from './files.js';
import { answerOf, failed, operationOf, OWN_CONNECTION, type Answer, type ServerHandle } from './calls.js';
import { noWebhooks, openInbox, repointInbox } from './inboxes.js';

export type { Webhooks, WebhookEvent, EventMatcher, NextOptions, NoneOptions, AllOptions } from './webhooks.js';
export type { EventType, EventOf, AnyEvent, EventGlob, GlobEvent, PathTemplate } from './typed.js';
export type { Permission } from '../client/api.js';
export type { ImportOptions } from './files.js';
export type { SandboxPaths } from './sandbox-paths.js';
export type { paths, components } from '../client/api.js';
export type { TypedClient } from '../client/index.js';
export type { Answer, ServerHandle } from './calls.js';

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
  /** Its name (default: the running test's name where the runner tells it — vitest, jest, or `test` below — else this file and a counter). */
  name?: string;
  /** node:test: the test's context (`t`), whose name names the sandbox. */
  test?: { name: string; fullName?: string };
  /** Dropped by the server after this long without a request, in real time: a duration (`30m`, `1h`) or seconds (default `1h`; docs/sandboxes.md). */
  ttl?: string | number;
  /** Make the process's webhook collector an endpoint of the sandbox (default true). */
  webhooks?: boolean;
}

/** The kit's default time to live: a test's sandbox left behind on a shared server is gone an hour after its last request. */
export const DEFAULT_TTL = '1h';

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

/** A payctl server to make sandboxes on. */
export interface Payctl {
  url: string;
  adminToken: string;
  /** The process id of the server this started (undefined for a running server given by url). */
  pid?: number;
  /** A typed client with the admin token (sandboxes, forks). */
  client: TypedClient<paths>;
  sandbox<O extends SandboxOptions>(opts?: O): Promise<Sandbox<O extends { demo: true } ? DemoIds : undefined>>;
  /** A new sandbox from a file `sb.export()` wrote (this server's or another's): new ids and keys, the same clock; its collector endpoint points at this process's collector. */
  importSandbox(file: string, opts?: ImportOptions): Promise<Sandbox>;
  /** Stop the server this started (a running server given by url is left running). */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export class Sandbox<Demo extends DemoIds | undefined = DemoIds | undefined> {
  readonly groupId: string;
  readonly processorId: string;
  readonly linkedAccountId: string;
  /** One API key per permission kind. */
  readonly keys: Record<Permission, string>;
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

  /** Set by drop(): what a call then says. */
  private dropped: string | undefined;

  constructor(
    private readonly server: ServerHandle,
    created: Schemas['Sandbox'],
    webhooks: Webhooks,
    private readonly onDrop: () => void,
    private readonly makeWebhooks: (created: Schemas['Sandbox']) => Promise<Webhooks> = async () => webhooks,
  ) {
    this.created = created;
    this.groupId = created.group_id;
    this.processorId = created.processor_id;
    this.linkedAccountId = created.linked_account_id;
    this.keys = created.keys as Record<Permission, string>;
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
    if (permission !== undefined) return this.keys[permission as Permission];
    return auth.admin ? this.server.adminToken : undefined;
  }

  /**
   * Any call: the path's {group_id} and {linked_account_id} filled, the operation's key sent
   * (unless `key`). A path template of the API is checked, with its method and its body
   * (typed from the OpenAPI document); a filled path (no `{…}`) is sent as it is.
   */
  async request<T = any, M extends string = string, P extends string = string>( // eslint-disable-line @typescript-eslint/no-explicit-any
    method: M & CheckedMethod<M, P>,
    template: P & CheckedPath<P>,
    ...[opts = {}]: RequestArgs<M, P, RequestOptions>
  ): Promise<Answer<T>> {
    this.usable();
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
    return (await answerOf(await reach(this.server, url, { method: method.toUpperCase(), headers, body }))) as Answer<T>;
  }

  /** Refuses a call once the sandbox was dropped or its server stopped, saying which (not "unknown API key", "fetch failed"). */
  private usable(): void {
    if (this.server.stopped !== undefined) throw new Error(this.server.stopped);
    if (this.dropped !== undefined) throw new Error(this.dropped);
  }

  /** Drop the sandbox and every row of it; its webhooks stop arriving. A second drop does nothing. */
  async drop(): Promise<void> {
    if (this.dropped !== undefined || this.server.stopped !== undefined) return;
    const a = await this.request('DELETE', '/api/v1/sandboxes/{group_id}');
    if (a.status !== 200 && a.status !== 404) throw failed(`dropping sandbox ${this.groupId}`, a);
    this.dropped = `payctl: sandbox ${this.groupId} ("${this.created.name}") was dropped (its drop() ran): make a new one with payctl.sandbox()`;
    if (this.webhooks instanceof Inbox) this.webhooks.closed = this.dropped;
    this.onDrop();
  }

  /**
   * A copy of this sandbox (every row, new ids, the same clock) as a new sandbox with keys
   * of its own; its collector endpoint points at this process's collector. The old → new
   * ids are in `fork.created.id_map`.
   */
  async fork(opts: { name?: string } = {}): Promise<Sandbox> {
    const a = await this.request('POST', '/api/v1/sandboxes/{group_id}/fork', { body: { name: opts.name ?? `${this.created.name} (fork)`.slice(0, 100) } });
    if (a.status !== 201 && a.status !== 202) throw failed(`forking sandbox ${this.groupId}`, a);
    const created = (a.status === 202 ? { ...a.body, ...(await waitActive(this.server, a.body.group_id)) } : a.body) as Schemas['Sandbox'];
    const sb = new Sandbox(this.server, created, await this.makeWebhooks(created), this.onDropOf(created), this.makeWebhooks);
    return sb;
  }

  /** This sandbox's whole state as a file (JSON lines, no secrets): written to `file` (default: a new file in the temporary folder); resolves with its path. */
  async export(file?: string): Promise<string> {
    this.usable();
    return exportFile(this.server, this.groupId, file);
  }

  private onDropOf(created: Schemas['Sandbox']): () => void {
    return () => void collector().then((c) => c.close(created.group_id));
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
        this.usable();
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
  const server: ServerHandle = { url, adminToken };
  const client = createClient({ baseUrl: url, key: adminToken, headers: OWN_CONNECTION });
  client.use({
    onRequest: () => {
      if (server.stopped !== undefined) throw new Error(server.stopped);
      return undefined;
    },
  });
  let stopped: Promise<void> | undefined;
  // The inboxes of this server's sandboxes (a dropped one's is gone from the collector): after stop() their `next` says so too.
  const groups = new Set<string>();
  const track = (w: Webhooks) => (w instanceof Inbox && groups.add(w.groupId), w);
  const makeWebhooks = (on: boolean) => async (sb: Schemas['Sandbox']) => (on ? track(await repointInbox(server, sb)) : noWebhooks(sb.group_id));
  const payctl: Payctl = {
    url,
    adminToken,
    ...(pid !== undefined ? { pid } : {}),
    client,
    async sandbox(o?: SandboxOptions) {
      const { webhooks = true, test, name, ttl = DEFAULT_TTL, clock, ...rest } = o ?? {};
      // Frozen unless told otherwise, at the anchor unless given a time: the same dates on every run.
      // A clock asked to run without a time runs from the platform's (real) time.
      const asked = typeof clock === 'string' ? { time: clock } : clock;
      const body = { ...rest, name: name ?? traceableName(test), ttl, clock: asked?.mode && asked.mode !== 'frozen' ? asked : { ...TEST_CLOCK, ...asked } };
      const created = await client.POST('/api/v1/sandboxes', { body });
      if (!created.data) throw failed('creating a sandbox', { status: created.response.status, headers: created.response.headers, body: created.error });
      const sb = created.data;
      const inbox = webhooks ? track(await openInbox(url, sb)) : noWebhooks(sb.group_id);
      return new Sandbox(server, sb, inbox, () => void (webhooks && collector().then((c) => c.close(sb.group_id))), makeWebhooks(webhooks)) as never;
    },
    async importSandbox(file, o = {}) {
      const { webhooks = true, ttl = DEFAULT_TTL, name } = o;
      const created = (await importFile(server, file, { ttl, ...(name !== undefined ? { name } : {}) })) as Schemas['Sandbox'];
      const secrets = (created as { webhook_secrets?: Record<string, string> }).webhook_secrets ?? {};
      const inbox = webhooks ? track(await repointInbox(server, created, secrets)) : noWebhooks(created.group_id);
      return new Sandbox(server, created, inbox, () => void (webhooks && collector().then((c) => c.close(created.group_id))), makeWebhooks(webhooks));
    },
    stop: () =>
      (stopped ??= (async () => {
        server.stopped = `payctl: the server at ${url} was stopped (payctl.stop() ran): calls after it are refused; start another with startPayctl()`;
        const c = await collector();
        for (const id of groups) c.inbox(id)?.close(server.stopped);
        await stopServer();
      })()),
    [Symbol.asyncDispose]: () => payctl.stop(),
  };
  return payctl;
}
