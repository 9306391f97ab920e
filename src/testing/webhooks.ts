// The webhook collector of `payctl/testing`: one HTTP receiver per test process
// (127.0.0.1, a free port), made an endpoint of each sandbox when the sandbox is made, so
// no event is missed. Each sandbox has its own path and inbox; every delivery's Standard
// Webhooks signature is verified with that sandbox's secret (the standardwebhooks package)
// and only verified events are kept. A delivery that fails verification is kept as a
// failure: the next `next` of that sandbox rejects with its reason. Tests wait for events
// (`next`), never sleep for them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { EventGlob, EventOf, EventType, GlobEvent } from './typed.js';
import { EVENT_TYPES } from '../client/api.js';
import { closest } from '../lib/closest.js';

/** An event as delivered: the envelope every payctl webhook carries. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  group_id?: string;
  data: { object: Record<string, any>; previous_attributes?: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  [field: string]: unknown;
}

/** Which events: an exact type, a glob (`transaction.*`, `*`), or a function of the event. */
export type EventMatcher = string | ((event: WebhookEvent) => boolean);

export interface NextOptions {
  /** How long to wait, in ms (default 10 000). */
  timeout?: number;
  /** Return the deliveries a fault duplicated (same webhook-id) too, each as it came (default false). */
  duplicates?: boolean;
}

export interface NoneOptions {
  /** How long no matching event may arrive, in ms (default 500). */
  within?: number;
}

export interface AllOptions {
  /** Keep deliveries a fault duplicated (same webhook-id) as often as they came (default false: once). */
  duplicates?: boolean;
}

/**
 * The verified webhooks of one sandbox. An event type (`'transaction.settled'`) gives that
 * type's event (its `data.object` typed from the OpenAPI document) and must be a type payctl
 * sends; a glob (`'transaction.*'`) the events it names; a predicate any event.
 */
export interface Webhooks {
  /** The first matching event that no earlier `next` returned, waiting up to `timeout` for it; rejects listing what did arrive. */
  next<T extends EventType>(type: T, opts?: NextOptions): Promise<EventOf<T>>;
  next<G extends EventGlob>(glob: G, opts?: NextOptions): Promise<GlobEvent<G>>;
  next(match?: (event: WebhookEvent) => boolean, opts?: NextOptions): Promise<WebhookEvent>;
  /** Resolves when no matching event that no `next` returned arrived (so far, and for `within` ms more); rejects naming the one that did. */
  none(match?: EventType | EventGlob | ((event: WebhookEvent) => boolean), opts?: NoneOptions): Promise<void>;
  /** The events received so far, in arrival order, each once unless `duplicates`. */
  all<T extends EventType>(type: T, opts?: AllOptions): EventOf<T>[];
  all<G extends EventGlob>(glob: G, opts?: AllOptions): GlobEvent<G>[];
  all(match?: (event: WebhookEvent) => boolean, opts?: AllOptions): WebhookEvent[];
  /** Forget what arrived (events and failed verifications); `next` then waits for new events. */
  clear(): void;
}

/** Whether `type` matches the glob `pattern` (`*` matches any run of characters). */
export function typeMatches(pattern: string, type: string): boolean {
  if (!pattern.includes('*')) return pattern === type;
  const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(type);
}

/** The stack of whoever called `fn` (its frames only), taken at the call. */
function callerStack(fn: (...args: never[]) => unknown): string {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, fn);
  return (holder.stack ?? '').split('\n').slice(1).join('\n');
}

/** `err` with the frames of the call that waited, not of the timer that gave up. */
function withStack(err: Error, frames: string): Error {
  err.stack = `${err.name}: ${err.message}\n${frames}`;
  return err;
}

/** An exact type payctl never sends would only ever time out: refused at once (JavaScript has no compiler to say so). */
function checkType(match: EventMatcher | undefined): void {
  if (typeof match !== 'string' || match.includes('*') || (EVENT_TYPES as readonly string[]).includes(match)) return;
  const guess = closest(match, EVENT_TYPES);
  throw new TypeError(`"${match}" is not an event type payctl sends${guess ? ` (did you mean "${guess}"?)` : ''}; see docs/events-and-webhooks.md for the list`);
}

const matcherOf = (match: EventMatcher | undefined): ((e: WebhookEvent) => boolean) => {
  checkType(match);
  return match === undefined ? () => true : typeof match === 'function' ? match : (e) => typeMatches(match, e.type);
};

const describeMatch = (match: EventMatcher | undefined): string =>
  match === undefined ? 'any event' : typeof match === 'function' ? 'an event matching the predicate' : `"${match}"`;

interface Delivery {
  webhookId: string;
  event: WebhookEvent;
  duplicate: boolean;
}

interface Waiter {
  check(): void;
}

/** One sandbox's inbox in the collector (the sandbox's `Webhooks`: the interface types its overloads). */
export class Inbox {
  private readonly verifier: Webhook;
  private readonly deliveries: Delivery[] = [];
  private readonly seen = new Set<string>();
  private readonly taken = new Set<Delivery>();
  private readonly failures: string[] = [];
  private readonly waiters = new Set<Waiter>();
  /** Set when the sandbox is dropped or its server stopped: what a call then says. */
  closed: string | undefined;

  /** Refuse every later call with `reason`. */
  close(reason: string): void {
    this.closed ??= reason;
  }

  constructor(
    readonly groupId: string,
    secret: string,
  ) {
    this.verifier = new Webhook(secret);
  }

  /** A delivery's body and headers: kept when its signature verifies; the answer's status. */
  receive(body: string, headers: Record<string, string>): number {
    const webhookId = headers['webhook-id'] ?? '(no webhook-id)';
    let event: WebhookEvent;
    try {
      event = this.verifier.verify(body, headers) as WebhookEvent;
    } catch (err) {
      this.failures.push(`webhook ${webhookId} to sandbox ${this.groupId} failed verification: ${err instanceof Error ? err.message : String(err)}`);
      this.wake();
      return 400;
    }
    const duplicate = this.seen.has(webhookId);
    this.seen.add(webhookId);
    this.deliveries.push({ webhookId, event, duplicate });
    this.wake();
    return 200;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w.check();
  }

  private firstUntaken(matches: (e: WebhookEvent) => boolean, duplicates: boolean): Delivery | undefined {
    return this.deliveries.find((d) => (duplicates || !d.duplicate) && !this.taken.has(d) && matches(d.event));
  }

  private arrived(): string {
    const types = this.deliveries.filter((d) => !d.duplicate).map((d) => d.event.type);
    return types.length ? `arrived: ${types.join(', ')}` : 'nothing arrived';
  }

  /**
   * What `next` and `none` start with: the caller's stack, taken now (a timeout's error points
   * at the test's line, not at a timer), and the matcher — or the error to reject with (a
   * stopped collector, an unknown event type).
   */
  private begin(match: EventMatcher | undefined, api: (...args: never[]) => unknown): { caller: string; matches: (e: WebhookEvent) => boolean } | { refused: Error } {
    const caller = callerStack(api);
    if (this.closed !== undefined) return { refused: withStack(new Error(this.closed), caller) };
    try {
      return { caller, matches: matcherOf(match) };
    } catch (err) {
      return { refused: withStack(err as Error, caller) };
    }
  }

  next(match?: EventMatcher, opts: NextOptions = {}): Promise<WebhookEvent> {
    const timeoutMs = opts.timeout ?? 10_000;
    const start = this.begin(match, this.next);
    if ('refused' in start) return Promise.reject(start.refused);
    const { caller, matches } = start;
    return new Promise<WebhookEvent>((resolve, reject) => {
      const waiter: Waiter = {
        check: () => {
          const failure = this.failures.shift();
          if (failure !== undefined) return done(() => reject(new Error(failure)));
          const d = this.firstUntaken(matches, opts.duplicates ?? false);
          if (!d) return;
          this.taken.add(d);
          done(() => resolve(d.event));
        },
      };
      const timer = setTimeout(
        () => done(() => reject(withStack(new Error(`no ${describeMatch(match)} webhook within ${timeoutMs} ms for sandbox ${this.groupId} (${this.arrived()})`), caller))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        settle();
      };
      this.waiters.add(waiter);
      waiter.check();
    });
  }

  none(match?: EventMatcher, opts: NoneOptions = {}): Promise<void> {
    const withinMs = opts.within ?? 500;
    const start = this.begin(match, this.none);
    if ('refused' in start) return Promise.reject(start.refused);
    const { caller, matches } = start;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        check: () => {
          const failure = this.failures.shift();
          if (failure !== undefined) return done(() => reject(new Error(failure)));
          const d = this.firstUntaken(matches, false);
          if (d) done(() => reject(withStack(new Error(`expected no ${describeMatch(match)} webhook for sandbox ${this.groupId}, got ${d.event.type} (event ${d.event.id})`), caller)));
        },
      };
      const timer = setTimeout(() => done(resolve), withinMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        settle();
      };
      this.waiters.add(waiter);
      waiter.check();
    });
  }

  all(match?: EventMatcher, opts: AllOptions = {}): WebhookEvent[] {
    const matches = matcherOf(match);
    return this.deliveries.filter((d) => (opts.duplicates || !d.duplicate) && matches(d.event)).map((d) => d.event);
  }

  clear(): void {
    this.deliveries.length = 0;
    this.failures.length = 0;
    this.seen.clear();
    this.taken.clear();
  }
}

/** The process's receiver: one HTTP server, an inbox per sandbox at /payctl/<group_id>. */
export class Collector {
  private readonly inboxes = new Map<string, Inbox>();

  private constructor(
    private readonly server: http.Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<Collector> {
    let collector: Collector | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const inbox = collector?.inboxes.get(decodeURIComponent((req.url ?? '').replace(/^\/payctl\//, '')));
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        const status = inbox ? inbox.receive(Buffer.concat(chunks).toString('utf8'), headers) : 410;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status === 200 ? 'ok' : status === 410 ? 'no such sandbox here (dropped)' : 'signature verification failed');
      });
    });
    // Neither the server nor its connections keep a finished test process alive. Idle
    // connections stay open a minute: payctl's sender reusing one the receiver is just
    // closing would fail an attempt (retried, but seconds later).
    server.on('connection', (socket) => socket.unref());
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    const { port } = server.address() as AddressInfo;
    collector = new Collector(server, `http://127.0.0.1:${port}`);
    return collector;
  }

  /** The URL a sandbox's endpoint posts to. */
  urlOf(groupId: string): string {
    return `${this.baseUrl}/payctl/${encodeURIComponent(groupId)}`;
  }

  open(groupId: string, secret: string): Inbox {
    const inbox = new Inbox(groupId, secret);
    this.inboxes.set(groupId, inbox);
    return inbox;
  }

  /** A sandbox's inbox, while it is open. */
  inbox(groupId: string): Inbox | undefined {
    return this.inboxes.get(groupId);
  }

  /** The sandbox was dropped: its inbox is closed (what its calls then say: `reason`). */
  close(groupId: string, reason?: string): void {
    const inbox = this.inboxes.get(groupId);
    if (inbox && reason !== undefined) inbox.closed = reason;
    this.inboxes.delete(groupId);
  }

  /** Stop the receiver (tests of the collector itself; a test process need not). */
  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

let shared: Promise<Collector> | undefined;

/** The collector of this process, started on first use. */
export function collector(): Promise<Collector> {
  shared ??= Collector.start().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}
