// Sending webhook deliveries: a job, never a side effect of the write that made the
// event. A pass reads the deliveries due on a group's clock, claims them with a lease
// (compare-and-set: of two processes passing at once, each row goes to one), POSTs each
// event signed per Standard Webhooks after the claim committed, then records every
// attempt and the delivery's next state in one write. A failed attempt is retried on the
// group's clock (RETRY_DELAYS_MS, counted from when the attempt fell due, so a clock
// advance of days runs every retry that fell due in it); after the last it has failed.
//
// Per pass: one read of what is due with what to send (events with their data as stored
// JSON, so a body is assembled, not re-serialized; endpoints' URLs and secrets); a claim,
// and later the record of every attempt, as deferred compare-and-sets that travel with
// the writer's batch (no statement of their own: the sales committed beside them keep the
// batch's fast path); HMAC-SHA256 signatures with node:crypto (signing.ts: the replaced
// secret too during a rotation's grace period); POSTs over http1.ts's keep-alive
// connections. A delivery's CPU is the bench's limit: BENCHMARKS.md, "Webhooks".
//
// Who runs passes: `payctl serve` (nudged after each commit that appended events of a
// group with endpoints, plus its tick) and the scheduler's job (`clock advance`, the
// sandbox clock route). The lease is real time: it bounds how long a process that died
// mid-send keeps a delivery from the others, and an attempt never outlives its lease.
import { performance } from 'node:perf_hooks';
import type { Store } from '../../store/interfaces/db.js';
import type { Clock } from '../clock/clock.js';
import { forGroup, withClockOffset, type Platform } from '../platform.js';
import { configCache } from '../../store/config-cache.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import type { WebhookAttemptEntity, WebhookSend } from '../../store/interfaces/webhooks.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAt, RESPONSE_BODY_MAX_BYTES, succeeded } from '../../domain/webhooks.js';
import { post } from './http1.js';
import { signatureHeader } from './signing.js';
import { newId } from '../../lib/ids.js';
import { ENV, type Env } from '../../config/env.js';

/** Deliveries claimed per write. */
const BATCH = 256;
/** How long a nudged loop waits for more commits before its pass: fewer, larger passes under load. */
const COALESCE_MS = 20;
const DEFAULT_LEASE_MS = 15_000;
/** Response bytes read past the kept 1 KiB before the connection is dropped instead. */
const DRAIN_MAX_BYTES = 64 * 1024;

export function leaseMs(env: Env): number {
  const v = Number(env[ENV.webhookLeaseMs]);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_LEASE_MS;
}

interface PassTarget {
  db: Store;
  /** The clock of the groups in the scope. */
  clock: Clock;
  env: Env;
}

interface Outcome {
  delivery: WebhookSend;
  status: number | undefined;
  body: string | null;
  error: string | null;
  latencyMs: number;
  sentAt: string;
}

/** A deferred compare-and-set of a pass found a delivery changed by another sender. */
class Lost extends Error {}
const lost = () => new Lost('another sender holds one of these deliveries');

/**
 * Send every delivery of `scope` due by `until` (default: the scope's clock, read at each
 * round) that this process can claim. Returns the attempts made.
 */
export async function deliverDue(t: PassTarget, scope: GroupScope, until?: Date): Promise<number> {
  let attempts = 0;
  for (;;) {
    const realNow = Date.now();
    const dueBy = (until ?? t.clock.now()).toISOString();
    const due = await t.db.repos.webhookSends.due(t.db, scope, dueBy, realNow, BATCH);
    if (due.length === 0) return attempts;
    const owner = newId();
    const leaseUntil = realNow + leaseMs(t.env);
    const claimed = await claim(t, due, owner, leaseUntil, realNow, dueBy);
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

/**
 * Claim what the read found: as one compare-and-set that travels with the writer's batch
 * (no statement of its own); when another sender got some of them first, again for
 * whichever are still free. Returns the deliveries this process now holds.
 */
async function claim(t: PassTarget, due: WebhookSend[], owner: string, leaseUntil: number, realNow: number, dueBy: string): Promise<WebhookSend[]> {
  const picked = due.map((d) => ({ id: d.delivery_id, attempts: d.attempts }));
  try {
    await t.db.write(async (tx) => tx.repos.webhookDeliveries.claim(tx, picked, owner, leaseUntil, realNow, dueBy, lost));
    return due;
  } catch (err) {
    if (!(err instanceof Lost)) throw err;
  }
  const got = new Set(await t.db.write((tx) => tx.repos.webhookDeliveries.claimSome(tx, picked, owner, leaseUntil, realNow, dueBy)));
  return due.filter((d) => got.has(d.delivery_id));
}

/** POST every claimed delivery, all at once; the outcome of each (never throws). */
async function sendAll(t: PassTarget, claimed: WebhookSend[], leaseUntil: number): Promise<Outcome[]> {
  const groupNow = t.clock.nowIso();
  const bodies = new Map<string, string>();
  return Promise.all(
    claimed.map(async (r): Promise<Outcome> => {
      const sentAt = groupNow;
      let body = bodies.get(r.event_id);
      if (body === undefined) bodies.set(r.event_id, (body = eventBody(r)));
      // An attempt ends before the lease does, so no other process can send it meanwhile.
      const timeout = Math.min(ATTEMPT_TIMEOUT_MS, leaseUntil - Date.now() - 500);
      if (timeout <= 0) return { delivery: r, status: undefined, body: null, error: 'not sent: the lease ran out before the attempt could start', latencyMs: 0, sentAt };
      // webhook-timestamp is real time: receivers check it against their own clock.
      const timestamp = Math.floor(Date.now() / 1000);
      const secrets = r.previous_secret && r.previous_secret_expires_at && groupNow < r.previous_secret_expires_at ? [r.secret, r.previous_secret] : [r.secret];
      const started = performance.now();
      const res = await post(r.url, body, {
        'webhook-id': r.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, r.event_id, timestamp, body),
      }, { timeoutMs: timeout, keepBytes: RESPONSE_BODY_MAX_BYTES, drainBytes: DRAIN_MAX_BYTES });
      const latencyMs = Math.round(performance.now() - started);
      const error = res.error ?? (succeeded(res.status) ? null : `the receiver answered ${res.status}`);
      return { delivery: r, status: res.status, body: res.body, error, latencyMs, sentAt };
    }),
  );
}

/**
 * The body of a delivery: the event as GET …/events/{id} answers it (the API's masked
 * objects), byte for byte `JSON.stringify(toEvent(row))`, assembled around the stored
 * data text instead of parsing and re-serializing it.
 */
export function eventBody(r: Pick<WebhookSend, 'event_id' | 'type' | 'created_at' | 'group_id' | 'request_id' | 'idempotency_key' | 'data'>): string {
  const request = r.request_id === null ? 'null' : JSON.stringify({ id: r.request_id, idempotency_key: r.idempotency_key });
  return `{"id":${JSON.stringify(r.event_id)},"type":${JSON.stringify(r.type)},"created_at":${JSON.stringify(r.created_at)},"group_id":${JSON.stringify(r.group_id)},"data":${r.data},"request":${request}}`;
}

/**
 * The attempts and each delivery's next state, in one write (only rows this pass still
 * holds change): the attempt rows and the compare-and-sets travel with the writer's batch;
 * if the lease of one was lost (a pass that outlived it), the write is made again with
 * plain updates, so every attempt is still recorded. Returns when the retries scheduled
 * are due.
 */
async function record(t: PassTarget, outcomes: Outcome[], owner: string): Promise<string[]> {
  const ok: number[] = [];
  const failed: Array<{ id: number; next: string | null }> = [];
  const attempts: WebhookAttemptEntity[] = outcomes.map((o) => {
    const d = o.delivery;
    const attempt = d.attempts + 1;
    const success = o.error === null; // sendAll leaves no error exactly when the receiver succeeded
    const next = success ? null : (nextAttemptAt(d.next_attempt_at, attempt) ?? null);
    if (success) ok.push(d.delivery_id);
    else failed.push({ id: d.delivery_id, next });
    return {
      id: newId(),
      group_id: d.group_id,
      endpoint_id: d.endpoint_id,
      delivery_id: d.delivery_id,
      event_id: d.event_id,
      event_type: d.type,
      attempt,
      status: success ? 'succeeded' : 'failed',
      response_status: o.status ?? null,
      response_body: o.body,
      error: o.error,
      latency_ms: o.latencyMs,
      scheduled_at: d.next_attempt_at,
      next_attempt_at: next,
      created_at: o.sentAt,
    };
  });
  try {
    await t.db.write(async (tx) => {
      for (const a of attempts) tx.repos.webhookAttempts.insert(tx, a);
      tx.repos.webhookDeliveries.settle(tx, owner, ok, failed, lost);
    });
  } catch (err) {
    if (!(err instanceof Lost)) throw err;
    await t.db.write(async (tx) => {
      for (const a of attempts) tx.repos.webhookAttempts.insert(tx, a);
      if (ok.length > 0) await tx.repos.webhookDeliveries.succeeded(tx, ok, owner);
      for (const f of failed) await tx.repos.webhookDeliveries.failed(tx, f.id, owner, f.next);
    });
  }
  return failed.flatMap((f) => (f.next === null ? [] : [f.next]));
}

/** Every due delivery of every group, one pass per distinct clock offset (a server's start). */
export async function deliverAllDue(p: Platform): Promise<number> {
  let n = 0;
  for (const { offset_ms: offsetMs } of await p.db.repos.groupClocks.distinctOffsets(p.db)) {
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
      this.active = { version, groups: new Set(await this.p.db.repos.webhookEndpoints.activeGroups(this.p.db)) };
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
