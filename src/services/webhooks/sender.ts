// A process's webhook sender on one database: a pass reads the deliveries due on a
// group's clock, claims them with a lease (compare-and-set: of two processes passing at
// once, each row goes to one), POSTs each event signed per Standard Webhooks after the
// claim committed, then records each attempt and the delivery's next state.
//
// Endpoints never wait on each other: a process queues its attempts per endpoint
// (lanes.ts: at most ENDPOINT_CONCURRENCY in flight each); a pass claims for an endpoint
// only what its lane has room for and skips endpoints whose lane is full, and it does
// not wait for the answers: each attempt is recorded when its own answer is over
// (outcomes that end together share a write). Every part of an answer is bounded in
// bytes and time (lib/http1.ts, RECEIVER_LIMITS): a hanging or endless receiver costs its
// own endpoint one timeout per slot, nothing more.
//
// Per pass: one read of what is due with what to send (events with their data as stored
// JSON, so a body is assembled, not re-serialized; endpoints' URLs and secrets); a claim,
// and later the record of the attempts, as deferred compare-and-sets that travel with
// the writer's batch (no statement of their own: the sales committed beside them keep the
// batch's fast path); HMAC-SHA256 signatures with node:crypto (signing.ts: the replaced
// secret too during a rotation's grace period); POSTs over lib/http1.ts's keep-alive
// connections, pooled per endpoint. A delivery's CPU is the bench's limit:
// docs/benchmarks/webhooks.md.
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import type { Store, WriteOptions } from '../../store/interfaces/db.js';
import type { Clock } from '../clock/clock.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import type { WebhookAttemptEntity, WebhookSend } from '../../store/interfaces/webhooks.js';
import { eventBody } from './event-body.js';
import { collect, inboxRow, type CollectedMessage } from './collect.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAt, RECEIVER_LIMITS, succeeded } from '../../domain/webhooks.js';
import { post } from '../../lib/http1.js';
import { signatureHeader } from './signing.js';
import { Lanes } from './lanes.js';
import { newId } from '../../lib/ids.js';
import { ENV, envInteger, type Env } from '../../config/env.js';
import { injectWebhookFault, mayFaultEndpoint } from '../faults/webhook-injector.js';
import { describeWebhookFault } from '../../domain/faults.js';
import { webhookAttempted } from '../telemetry.js';
import { storeWatch } from '../store-watch.js';
import { attemptsRecorded } from './recorded.js';

/** While the store is away, a write of attempt outcomes is tried again this often, this many times (then the lease decides). */
const RECORD_RETRY_MS = 1_000;
const RECORD_RETRIES = 30;

/** Deliveries read per pass. */
const BATCH = 256;
/** A claim's write: deliveries another server is claiming at this moment are passed over, not fought for (Dialect.skipLocked, store/sql/dialect.ts). */
const CLAIMS: WriteOptions = { claims: true };
/** How long an outcome waits for others still in flight to share its write. */
const RECORD_WAIT_MS = 10;

export function leaseMs(env: Env): number {
  return envInteger(env, ENV.webhookLeaseMs);
}

export interface PassTarget {
  db: Store;
  /** The clock the scope's deliveries keep (clock.ts deliveryClock). */
  clock: Clock;
  env: Env;
  /**
   * The scope's groups are frozen or accelerated: their deliveries keep real time, not the
   * groups' clocks — a first attempt is due at once, a retry counts from when its attempt was sent.
   */
  realTime?: boolean;
}

/** What one attempt came to, to record. */
export interface Outcome {
  delivery: WebhookSend;
  status: number | undefined;
  body: string | null;
  error: string | null;
  latencyMs: number;
  sentAt: string;
  /** The fault an endpoint's rule injected (docs/faults.md), recorded on the attempt. */
  fault?: string;
  /** A fault held the attempt back (delay, reorder): nothing was sent; due again then (group time). */
  heldUntil?: string;
  /** A collector's attempt: the messages kept in the inbox instead of POSTed (collect.ts). */
  collected?: CollectedMessage[];
  /** Sent for a group whose deliveries keep real time (PassTarget.realTime). */
  realTime?: boolean;
}

/** An attempt's outcome waiting for its record: its attempt row's id is chosen once, so a try again can tell whether an earlier one was saved. */
interface Recording {
  o: Outcome;
  owner: string;
  id: string;
  done: (next: string | null) => void;
  fail: (err: unknown) => void;
  tries?: number;
  /** An earlier try's COMMIT went unanswered (commit_unknown): it may be recorded already. */
  maybeSaved?: boolean;
}

/** A deferred compare-and-set of a pass found a delivery changed by another sender. */
class Lost extends Error {}
const lost = () => new Lost('another sender holds one of these deliveries');

/** One claim's deliveries: who holds them and until when (real ms). */
export interface Claim {
  owner: string;
  leaseUntil: number;
  /** The group's time when the claim's attempts are sent (their created_at). */
  groupNow: string;
  /** Bodies by event id, built once per event. */
  bodies: Map<string, string>;
  /** PassTarget.realTime of the pass that claimed them. */
  realTime?: boolean;
}

/**
 * Prepare and send one attempt of a claimed delivery: its body, signatures and headers,
 * the POST within `timeoutMs` and the receiver limits; what came of it (never throws).
 * Everything an attempt is passes through here.
 */
export async function sendAttempt(r: WebhookSend, claim: Claim, timeoutMs: number, faults?: Store): Promise<Outcome> {
  const o = await attemptOf(r, claim, timeoutMs, faults);
  return claim.realTime ? { ...o, realTime: true } : o;
}

async function attemptOf(r: WebhookSend, claim: Claim, timeoutMs: number, faults?: Store): Promise<Outcome> {
  const sentAt = claim.groupNow;
  // A sandbox's fault for this endpoint (none costs a map lookup): drop and holds send nothing.
  const injected = faults && mayFaultEndpoint(faults, r.endpoint_id) ? await injectWebhookFault(faults, r.endpoint_id, { id: r.delivery_id, heldOnce: r.held_once === 1 }, Date.parse(sentAt)) : undefined;
  const fault = injected ? { fault: describeWebhookFault(injected) } : {};
  const action = injected?.effect.action;
  if (action === 'drop') return { delivery: r, status: undefined, body: null, error: 'injected fault: drop (nothing was sent)', latencyMs: 0, sentAt, ...fault };
  if (injected && 'holdMs' in injected.effect) {
    const heldUntil = new Date(Date.parse(sentAt) + injected.effect.holdMs).toISOString();
    return { delivery: r, status: undefined, body: null, error: null, latencyMs: 0, sentAt, heldUntil, ...fault };
  }
  let body = claim.bodies.get(r.event_id);
  if (body === undefined) claim.bodies.set(r.event_id, (body = eventBody(r)));
  // webhook-timestamp is real time: receivers check it against their own clock.
  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = r.previous_secret && r.previous_secret_expires_at && sentAt < r.previous_secret_expires_at ? [r.secret, r.previous_secret] : [r.secret];
  // bad_signature: signed with a secret nobody has, so a receiver that verifies refuses it.
  const signing = action === 'bad_signature' ? [`whsec_${randomBytes(24).toString('base64')}`] : secrets;
  if (r.kind === 'collect') {
    const collected = collect(r.event_id, body, signing, timestamp, action === 'duplicate');
    // A badly signed message is kept, and refused as a verifying receiver refuses it: retried, signed properly.
    const error = action === 'bad_signature' ? 'injected fault: bad_signature (kept in the inbox; a receiver that verifies refuses it)' : null;
    return { delivery: r, status: undefined, body: null, error, latencyMs: 0, sentAt, collected, ...fault };
  }
  const started = performance.now();
  const send = () =>
    post(
      r.url,
      body,
      {
        'webhook-id': r.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(signing, r.event_id, timestamp, body),
      },
      { timeoutMs, limits: RECEIVER_LIMITS, keepBytes: RECEIVER_LIMITS.keptBodyBytes, bodyMaxBytes: RECEIVER_LIMITS.bodyBytes, pool: r.endpoint_id },
    );
  const res = await send();
  // duplicate: the same message (same webhook-id) once more after the first answer; the attempt is the first's.
  if (action === 'duplicate' && res.error === undefined) await send();
  const latencyMs = Math.round(performance.now() - started);
  const error = res.error ?? answerError(res.status);
  webhookAttempted(latencyMs, error === null);
  return { delivery: r, status: res.status, body: res.body, error, latencyMs, sentAt, ...fault };
}

/** Why a whole answer is a failure (null: it succeeded). */
function answerError(status: number | undefined): string | null {
  if (succeeded(status)) return null;
  if (status !== undefined && status >= 300 && status < 400) return `the receiver answered ${status} (a redirect: not followed)`;
  return `the receiver answered ${status}`;
}

/** What a dispatch started: each attempt resolves true once recorded (false: not sent, its lease too short by its turn). */
interface Dispatched {
  started: Promise<boolean>[];
  /** The endpoints of the attempts started. */
  endpoints: Set<string>;
  /** The read was a whole batch: more may be due. */
  more: boolean;
  /** An endpoint of the scope was skipped because its lane was full though fast (room comes soon). */
  waitable: boolean;
}

/** A process's sender on one database: its lanes, its attempts in flight, its recorder. */
export class Sender {
  readonly lanes = new Lanes();
  /** Attempts claimed and not yet recorded. */
  readonly pending = new Set<Promise<boolean>>();
  /**
   * Deliveries this process holds, from the claim until the attempt is recorded: one whose
   * record is written after its lease ended (a loaded machine) is not claimed and sent
   * again by this same process meanwhile.
   */
  private readonly held = new Set<number>();
  private outcomes: Recording[] = [];
  private recordTimer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** Answers not yet in `outcomes`. */
  private sending = 0;

  constructor(private readonly db: Store) {}

  /**
   * One pass over `scope`: read what is due by `dueBy` for endpoints whose lane has room
   * (and not in `skip`), claim it, and start each attempt in its endpoint's lane. Does
   * not wait for the answers. `backlog`: lanes that could not take all they had due are
   * marked, so the loop is told when they have room (a caller that waits for its
   * attempts sends the rest itself).
   */
  async dispatch(t: PassTarget, scope: GroupScope, dueBy: string, o: { skip?: ReadonlySet<string>; backlog: boolean }): Promise<Dispatched> {
    const now = performance.now();
    const skip = o.skip ?? new Set<string>();
    const full = this.lanes.full('groupId' in scope ? scope.groupId : undefined, now);
    if (o.backlog) for (const l of full) l.backlog = true;
    const skipIds = [...skip, ...full.map((l) => l.endpointId)];
    const waitable = full.some((l) => !skip.has(l.endpointId) && !l.slow(now));
    const realNow = Date.now();
    const due = await t.db.repos.webhookSends.due(t.db, scope, dueBy, realNow, BATCH, skipIds, t.realTime === true);
    const more = due.length === BATCH;
    // Per endpoint, what its lane has room for (promised until the claim is done).
    const room = new Map<string, number>();
    const picked: WebhookSend[] = [];
    for (const d of due) {
      if (this.held.has(d.delivery_id)) continue;
      const lane = this.lanes.lane(d.endpoint_id, d.group_id);
      const left = room.get(d.endpoint_id) ?? lane.room(now);
      if (left > 0) {
        picked.push(d);
        lane.reserved++;
      } else if (o.backlog) lane.backlog = true;
      room.set(d.endpoint_id, left - 1);
    }
    if (picked.length === 0) return { started: [], endpoints: new Set(), more, waitable };
    const owner = newId();
    const lease = leaseMs(t.env);
    const leaseUntil = realNow + lease;
    let claimed: WebhookSend[];
    try {
      claimed = await claim(t, picked, owner, leaseUntil, realNow, dueBy);
    } finally {
      for (const d of picked) this.lanes.lane(d.endpoint_id, d.group_id).reserved--;
    }
    for (const r of claimed) this.held.add(r.delivery_id);
    const c: Claim = { owner, leaseUntil, groupNow: t.clock.nowIso(), bodies: new Map(), realTime: t.realTime === true };
    // A queued attempt whose turn comes with less than this left of its lease is not sent.
    const minTimeout = Math.min(ATTEMPT_TIMEOUT_MS, lease / 2);
    const started = claimed.map((r) => {
      const attempt = this.lanes
        .lane(r.endpoint_id, r.group_id)
        .run(() => {
          // An attempt ends before the lease does, so no other process can send it meanwhile.
          const timeout = Math.min(ATTEMPT_TIMEOUT_MS, leaseUntil - Date.now() - 500);
          if (timeout < minTimeout) return undefined;
          this.sending++;
          return sendAttempt(r, c, timeout, this.db);
        })
        .then(async (o) => {
          if (o === undefined) {
            // Due again once the lease ends: the loop's owner is told then.
            const later = setTimeout(() => this.lanes.onRoom?.(r.group_id), Math.max(0, leaseUntil - Date.now()) + 50);
            later.unref();
            return false;
          }
          this.sending--;
          await this.record(o, owner);
          return true;
        });
      this.pending.add(attempt);
      void attempt
        .finally(() => {
          this.pending.delete(attempt);
          this.held.delete(r.delivery_id);
        })
        .catch(() => undefined);
      return attempt;
    });
    return { started, endpoints: new Set(claimed.map((r) => r.endpoint_id)), more, waitable };
  }

  /**
   * Record an attempt: outcomes that come together share one write — it goes when no
   * other answer is outstanding, after RECORD_WAIT_MS, or at a batch's worth. Resolves
   * with the retry's due time (null: none) once written.
   */
  private record(o: Outcome, owner: string): Promise<string | null> {
    return new Promise((done, fail) => {
      this.outcomes.push({ o, owner, id: newId(), done, fail });
      this.flushSoon(this.outcomes.length >= BATCH || this.sending === 0);
    });
  }

  private flushSoon(now: boolean): void {
    if (now) {
      if (this.immediate) return;
      if (this.recordTimer) clearTimeout(this.recordTimer);
      this.recordTimer = undefined;
      this.immediate = setImmediate(() => this.flush());
    } else if (!this.recordTimer && !this.immediate) {
      this.recordTimer = setTimeout(() => this.flush(), RECORD_WAIT_MS);
    }
  }

  private flush(): void {
    if (this.recordTimer) clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    this.immediate = undefined;
    const items = this.outcomes;
    this.outcomes = [];
    if (items.length === 0) return;
    recordOutcomes(this.db, items).then(
      (next) => items.forEach((it, i) => it.done(next[i]!)),
      (err: unknown) => {
        // The store is away: the outcomes wait for it a while (an answered attempt left
        // unrecorded would be sent again once its lease ends).
        const outage = storeWatch(this.db).failed(err);
        const again = outage ? items.filter((it) => (it.tries = (it.tries ?? 0) + 1) <= RECORD_RETRIES) : [];
        // Its COMMIT went unanswered: the write may be saved, so the next try looks first.
        if (outage?.commitUnknown) for (const it of again) it.maybeSaved = true;
        for (const it of items) if (!again.includes(it)) it.fail(err);
        if (again.length === 0) return;
        this.outcomes.push(...again);
        if (!this.recordTimer && !this.immediate) this.recordTimer = setTimeout(() => this.flush(), RECORD_RETRY_MS);
      },
    );
  }
}

/**
 * Claim what the read picked: as one compare-and-set that travels with the writer's batch
 * (no statement of its own); when another sender got some of them first, again for
 * whichever are still free. Returns the deliveries this process now holds.
 */
async function claim(t: PassTarget, due: WebhookSend[], owner: string, leaseUntil: number, realNow: number, dueBy: string): Promise<WebhookSend[]> {
  const picked = due.map((d) => ({ id: d.delivery_id, attempts: d.attempts }));
  try {
    await t.db.write(async (tx) => tx.repos.webhookDeliveries.claim(tx, picked, owner, leaseUntil, realNow, dueBy, lost, t.realTime === true), CLAIMS);
    return due;
  } catch (err) {
    if (!(err instanceof Lost)) throw err;
  }
  const got = new Set(await t.db.write((tx) => tx.repos.webhookDeliveries.claimSome(tx, picked, owner, leaseUntil, realNow, dueBy, t.realTime === true), CLAIMS));
  return due.filter((d) => got.has(d.delivery_id));
}

/**
 * Attempts and each delivery's next state, in one write (only rows their claim still
 * holds change): the attempt rows and the compare-and-sets travel with the writer's
 * batch; if the lease of one was lost (an attempt that outlived it), the write is made
 * again with plain updates, so every attempt is still recorded. Returns, for each, when
 * its retry is due (null: none).
 */
async function recordOutcomes(db: Store, all: readonly Recording[]): Promise<Array<string | null>> {
  // Attempts an earlier try saved though its COMMIT went unanswered are not recorded again
  // (their delivery was settled in that same write): each is answered with its retry time.
  const saved = await savedBefore(db, all);
  const items = all.filter((it) => !saved.has(it.id));
  if (items.length === 0) return all.map((it) => retryOf(it.o));
  const byOwner = new Map<string, { ok: number[]; failed: Array<{ id: number; next: string | null }> }>();
  const holds: Array<{ id: number; owner: string; next: string }> = [];
  const next: Array<string | null> = [];
  const attempts: WebhookAttemptEntity[] = items.map(({ o, owner, id }) => {
    const d = o.delivery;
    const attempt = d.attempts + 1;
    const success = o.error === null && o.heldUntil === undefined; // sendAttempt leaves no error exactly when the receiver succeeded
    const retry = retryOf(o);
    let held = byOwner.get(owner);
    if (!held) byOwner.set(owner, (held = { ok: [], failed: [] }));
    if (o.heldUntil !== undefined) holds.push({ id: d.delivery_id, owner, next: o.heldUntil });
    else if (success) held.ok.push(d.delivery_id);
    else held.failed.push({ id: d.delivery_id, next: retry });
    next.push(retry);
    return {
      id,
      group_id: d.group_id,
      endpoint_id: d.endpoint_id,
      delivery_id: d.delivery_id,
      event_id: d.event_id,
      event_type: d.type,
      attempt,
      status: o.heldUntil !== undefined ? 'held' : success ? 'succeeded' : 'failed',
      response_status: o.status ?? null,
      response_body: o.body,
      error: o.error,
      latency_ms: o.latencyMs,
      scheduled_at: d.next_attempt_at,
      next_attempt_at: retry,
      created_at: o.sentAt,
      fault: o.fault ?? null,
    };
  });
  const inbox = items.flatMap(({ o }) => (o.collected ?? []).map((m) => inboxRow(o.delivery, m, o.sentAt)));
  try {
    await db.write(async (tx) => {
      for (const a of attempts) tx.repos.webhookAttempts.insert(tx, a);
      for (const m of inbox) tx.repos.webhookInbox.insert(tx, m);
      for (const [owner, { ok, failed }] of byOwner) tx.repos.webhookDeliveries.settle(tx, owner, ok, failed, lost);
      for (const h of holds) await tx.repos.webhookDeliveries.hold(tx, h.id, h.owner, h.next);
    });
  } catch (err) {
    if (!(err instanceof Lost)) throw err;
    await db.write(async (tx) => {
      for (const a of attempts) tx.repos.webhookAttempts.insert(tx, a);
      for (const m of inbox) tx.repos.webhookInbox.insert(tx, m);
      for (const [owner, { ok, failed }] of byOwner) {
        if (ok.length > 0) await tx.repos.webhookDeliveries.succeeded(tx, ok, owner);
        for (const f of failed) await tx.repos.webhookDeliveries.failed(tx, f.id, owner, f.next);
      }
      for (const h of holds) await tx.repos.webhookDeliveries.hold(tx, h.id, h.owner, h.next);
    });
  }
  attemptsRecorded(attempts.map((a) => a.group_id));
  const byId = new Map(items.map((it, i) => [it.id, next[i]!]));
  return all.map((it) => (byId.has(it.id) ? byId.get(it.id)! : retryOf(it.o)));
}

/** When an attempt's delivery is due again (null: not again — it succeeded, or that was its last try). */
function retryOf(o: Outcome): string | null {
  const success = o.error === null && o.heldUntil === undefined;
  // Real time: counted from when the attempt was sent (a first attempt carries its group's frozen or fast time).
  const from = o.realTime ? o.sentAt : o.delivery.next_attempt_at;
  return o.heldUntil ?? (success ? null : (nextAttemptAt(from, o.delivery.attempts + 1) ?? null));
}

/** The ids of `items` an earlier try recorded though its COMMIT went unanswered (read only for those). */
async function savedBefore(db: Store, items: readonly Recording[]): Promise<Set<string>> {
  const saved = new Set<string>();
  const unsure = new Map<string, string[]>();
  for (const it of items) if (it.maybeSaved) unsure.set(it.o.delivery.endpoint_id, [...(unsure.get(it.o.delivery.endpoint_id) ?? []), it.id]);
  for (const [endpointId, ids] of unsure) for (const id of await db.repos.webhookAttempts.recorded(db, endpointId, ids)) saved.add(id);
  return saved;
}

const senders = new WeakMap<object, Sender>();
/** This process's sender on `db` (one per database: its lanes are shared by every pass). */
export function senderFor(db: Store): Sender {
  let s = senders.get(db);
  if (!s) senders.set(db, (s = new Sender(db)));
  return s;
}
