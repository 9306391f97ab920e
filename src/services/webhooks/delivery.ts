// Sending webhook deliveries: a job, never a side effect of the write that made the
// event. A pass reads the deliveries due on a group's clock, claims them with a lease
// (compare-and-set: of two processes passing at once, each row goes to one), POSTs each
// event signed per Standard Webhooks after the claim committed, then records every
// attempt and the delivery's next state in one write. A failed attempt is retried on the
// group's clock (RETRY_DELAYS_MS, counted from when the attempt fell due, so a clock
// advance of days runs every retry that fell due in it); after the last it has failed.
//
// Who runs passes: `payctl serve` (nudged after each commit that appended events of a
// group with endpoints, plus its tick) and the scheduler's job (`clock advance`, the
// sandbox clock route). The lease is real time: it bounds how long a process that died
// mid-send keeps a delivery from the others, and an attempt never outlives its lease.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import type { Database, Store } from '../../store/db.js';
import type { Clock } from '../clock/clock.js';
import { forGroup, withClockOffset, type Platform } from '../platform.js';
import { configCache } from '../../store/config-cache.js';
import { eventRepo } from '../../store/repositories/events.js';
import { groupClockRepo, type GroupScope } from '../../store/repositories/group-clocks.js';
import { attemptRepo, deliveryRepo, webhookEndpointRepo, type DeliveryRow } from '../../store/repositories/webhooks.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAt, RESPONSE_BODY_MAX_BYTES, succeeded } from '../../domain/webhooks.js';
import { toEvent } from '../events/events.js';
import { newId } from '../../lib/ids.js';
import { ENV, type Env } from '../../config/env.js';

/** Deliveries claimed per write. */
const BATCH = 256;
/** How long a nudged loop waits for more commits before its pass: fewer, larger passes under load. */
const COALESCE_MS = 20;
const DEFAULT_LEASE_MS = 15_000;
/** Response bytes read past the kept 1 KiB before the connection is dropped instead. */
const DRAIN_MAX_BYTES = 64 * 1024;

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export function leaseMs(env: Env): number {
  const v = Number(env[ENV.webhookLeaseMs]);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_LEASE_MS;
}

interface PassTarget {
  db: Database;
  /** The clock of the groups in the scope. */
  clock: Clock;
  env: Env;
}

interface Outcome {
  delivery: DeliveryRow;
  eventType: string;
  status: number | undefined;
  body: string | null;
  error: string | null;
  latencyMs: number;
  sentAt: string;
}

/**
 * Send every delivery of `scope` due by `until` (default: the scope's clock, read at each
 * round) that this process can claim. Returns the attempts made.
 */
export async function deliverDue(t: PassTarget, scope: GroupScope, until?: Date): Promise<number> {
  let attempts = 0;
  for (;;) {
    const realNow = Date.now();
    const dueBy = (until ?? t.clock.now()).toISOString();
    const due = await deliveryRepo.due(t.db, scope, dueBy, realNow, BATCH);
    if (due.length === 0) return attempts;
    const owner = newId();
    const leaseUntil = realNow + leaseMs(t.env);
    const claimed = await t.db.write((tx) => deliveryRepo.claim(tx, due.map((d) => d.id), owner, leaseUntil, realNow));
    let again = due.length === BATCH;
    if (claimed.length > 0) {
      const outcomes = await sendAll(t, claimed, leaseUntil);
      const retries = await record(t, outcomes, owner);
      attempts += outcomes.length;
      // A retry already due (a clock advance past it) goes in this same call.
      again ||= retries.some((next) => next <= dueBy);
    }
    if (!again) return attempts;
  }
}

/** POST every claimed delivery, all at once; the outcome of each (never throws). */
async function sendAll(t: PassTarget, claimed: DeliveryRow[], leaseUntil: number): Promise<Outcome[]> {
  const [events, endpoints] = await Promise.all([
    eventRepo.byIds(t.db, [...new Set(claimed.map((d) => d.event_id))]),
    webhookEndpointRepo.byIds(t.db, [...new Set(claimed.map((d) => d.endpoint_id))]),
  ]);
  const eventById = new Map(events.map((e) => [e.id, e]));
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const bodies = new Map<string, string>();
  return Promise.all(
    claimed.map(async (delivery): Promise<Outcome> => {
      const sentAt = t.clock.nowIso();
      const row = eventById.get(delivery.event_id);
      const endpoint = endpointById.get(delivery.endpoint_id);
      const fail = (error: string): Outcome => ({ delivery, eventType: row?.type ?? 'unknown', status: undefined, body: null, error, latencyMs: 0, sentAt });
      if (!row) return fail('the event no longer exists');
      if (!endpoint) return fail('the endpoint no longer exists');
      // The body is the event as GET …/events/{id} answers it (the API's masked objects).
      let body = bodies.get(row.id);
      if (body === undefined) bodies.set(row.id, (body = JSON.stringify(toEvent(row))));
      // An attempt ends before the lease does, so no other process can send it meanwhile.
      const timeout = Math.min(ATTEMPT_TIMEOUT_MS, leaseUntil - Date.now() - 500);
      if (timeout <= 0) return fail('not sent: the lease ran out before the attempt could start');
      // webhook-timestamp is real time: receivers check it against their own clock.
      const signature = signer(endpoint.secret).sign(row.id, new Date(), body);
      const started = performance.now();
      const r = await post(endpoint.url, body, {
        'webhook-id': row.id,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': signature,
      }, timeout);
      const latencyMs = Math.round(performance.now() - started);
      const error = r.error ?? (succeeded(r.status) ? null : `the receiver answered ${r.status}`);
      return { delivery, eventType: row.type, status: r.status, body: r.body, error, latencyMs, sentAt };
    }),
  );
}

/**
 * The attempts and each delivery's next state, in one write (only rows this pass still
 * holds change). Returns when the retries scheduled are due.
 */
async function record(t: PassTarget, outcomes: Outcome[], owner: string): Promise<string[]> {
  return t.db.write(async (tx) => {
    const ok: number[] = [];
    const failed: Array<{ id: number; next: string | null }> = [];
    for (const o of outcomes) {
      const attempt = o.delivery.attempts + 1;
      const success = o.error === null && succeeded(o.status);
      const next = success ? null : (nextAttemptAt(o.delivery.next_attempt_at, attempt) ?? null);
      attemptRepo.insert(tx, {
        id: newId(),
        group_id: o.delivery.group_id,
        endpoint_id: o.delivery.endpoint_id,
        delivery_id: o.delivery.id,
        event_id: o.delivery.event_id,
        event_type: o.eventType,
        attempt,
        status: success ? 'succeeded' : 'failed',
        response_status: o.status ?? null,
        response_body: o.body,
        error: o.error,
        latency_ms: o.latencyMs,
        scheduled_at: o.delivery.next_attempt_at,
        next_attempt_at: next,
        created_at: o.sentAt,
      });
      if (success) ok.push(o.delivery.id);
      else failed.push({ id: o.delivery.id, next });
    }
    if (ok.length > 0) await deliveryRepo.succeeded(tx, ok, owner);
    for (const f of failed) await deliveryRepo.failed(tx, f.id, owner, f.next);
    return failed.flatMap((f) => (f.next === null ? [] : [f.next]));
  });
}

const signers = new Map<string, Webhook>();
function signer(secret: string): Webhook {
  let w = signers.get(secret);
  if (!w) {
    if (signers.size > 1000) signers.clear();
    signers.set(secret, (w = new Webhook(secret)));
  }
  return w;
}

interface PostResult {
  status?: number;
  body: string | null;
  error?: string;
}

/** POST `body` to `url`; resolves with the status and the first 1 KiB of the answer, or why it failed. */
function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: PostResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    let req: http.ClientRequest;
    try {
      const u = new URL(url);
      const mod = u.protocol === 'https:' ? https : http;
      req = mod.request(u, {
        method: 'POST',
        agent: u.protocol === 'https:' ? agents.https : agents.http,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'payctl-webhooks/1', ...headers },
      });
    } catch (err) {
      return finish({ body: null, error: `cannot send: ${(err as Error).message}` });
    }
    const timer = setTimeout(() => {
      req.destroy();
      finish({ body: null, error: `timed out after ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let seen = 0;
      res.on('data', (c: Buffer) => {
        seen += c.length;
        if (kept < RESPONSE_BODY_MAX_BYTES) {
          const part = c.subarray(0, RESPONSE_BODY_MAX_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (seen > DRAIN_MAX_BYTES) {
          res.destroy();
          finish({ status: res.statusCode, body: text(chunks) });
        }
      });
      res.on('end', () => finish({ status: res.statusCode, body: text(chunks) }));
      res.on('error', (err) => finish({ status: res.statusCode, body: text(chunks), error: `the response failed: ${err.message}` }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ body: null, error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(body);
  });
}

/** The kept bytes as text (a multi-byte character cut at 1 KiB becomes U+FFFD). */
const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString('utf8');

/** Every due delivery of every group, one pass per distinct clock offset (a server's start). */
export async function deliverAllDue(p: Platform): Promise<number> {
  let n = 0;
  for (const { offset_ms: offsetMs } of await groupClockRepo.distinctOffsets(p.db)) {
    const shifted = withClockOffset(p, offsetMs);
    n += await deliverDue({ db: p.db, clock: shifted.clock, env: p.env }, { offsetMs });
  }
  return n;
}

/**
 * The delivery loop of a long-running process (`payctl serve`): nudged after a commit
 * that appended events, it runs a pass for each group nudged that has an enabled
 * endpoint (known from a cache that follows config_version, so a sale of a group
 * without endpoints costs no read).
 */
export class DeliveryLoop {
  private nudged = new Map<string, Clock | undefined>();
  private scheduled = false;
  private running: Promise<void> | undefined;
  private stopped = false;
  private active: { version: number | undefined; groups: Set<string> } | undefined;
  /** Attempts made so far (a status line; the bench reads it). */
  attempts = 0;

  constructor(private readonly p: Platform) {}

  nudge(groupId: string, clock?: Clock): void {
    if (this.stopped) return;
    this.nudged.set(groupId, clock);
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.run(), COALESCE_MS);
  }

  /** Resolves once no pass is running or about to (the nudges so far are done). */
  async settled(): Promise<void> {
    while (this.running || this.scheduled) {
      if (this.running) await this.running;
      else await new Promise<void>((r) => setTimeout(r, COALESCE_MS));
    }
  }

  /** Resolves when no pass is running (after stop(): none will start). */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.running) await this.running;
  }

  private run(): void {
    this.scheduled = false;
    // A running pass schedules the next one when it ends (the nudges wait in the map).
    if (this.running || this.stopped) return;
    const groups = this.nudged;
    this.nudged = new Map();
    this.running = this.pass(groups).finally(() => {
      this.running = undefined;
      if (this.nudged.size > 0 && !this.stopped && !this.scheduled) {
        this.scheduled = true;
        setTimeout(() => this.run(), COALESCE_MS);
      }
    });
  }

  private async pass(groups: Map<string, Clock | undefined>): Promise<void> {
    try {
      const active = await this.activeGroups();
      for (const [groupId, clock] of groups) {
        if (this.stopped) return;
        if (!active.has(groupId)) continue;
        const c = clock ?? (await forGroup(this.p, groupId)).clock;
        this.attempts += await deliverDue({ db: this.p.db, clock: c, env: this.p.env }, { groupId });
      }
    } catch (err) {
      process.stderr.write(`webhook delivery failed: ${String(err)}\n`);
    }
  }

  private async activeGroups(): Promise<Set<string>> {
    const version = configCache(this.p.db).currentVersion;
    if (!this.active || version === undefined || this.active.version !== version) {
      this.active = { version, groups: new Set(await webhookEndpointRepo.activeGroups(this.p.db)) };
    }
    return this.active.groups;
  }
}

const loops = new WeakMap<object, DeliveryLoop>();

/** Deliver from this process: nudges after commits start passes (payctl serve). */
export function startDeliveryLoop(p: Platform): DeliveryLoop {
  const loop = new DeliveryLoop(p);
  loops.set(p.db, loop);
  return loop;
}

export function stopDeliveryLoop(p: Platform): Promise<void> {
  const loop = loops.get(p.db);
  loops.delete(p.db);
  return loop?.stop() ?? Promise.resolve();
}

/** Resolves once this process's delivery loop has finished what it was nudged for so far. */
export async function deliveriesSettled(p: Platform): Promise<void> {
  await p.db.afterCommitSettled();
  await loops.get(p.db)?.settled();
}

/** After a commit that appended events of `groupId`: start a pass if this process delivers (a no-op in CLI commands). */
export function nudgeDelivery(store: Store, groupId: string, clock?: Clock): void {
  loops.get(store)?.nudge(groupId, clock);
}
