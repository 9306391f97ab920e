// Idempotency-Key: the key is claimed in the same database transaction as the work it
// guards (the request's first unit of work), so a crash can never leave work done
// without its record, or a record without its work. The record holds the answer the
// request gave, its status and body: the unit of work writes the use case's result
// with the route's status, or the answer the work already knows it will give (an error
// after a recorded decline: `uow.answer`), so a retry reaching another server at once
// replays what this request answers. When the answer is known only after the commit (an
// onboarding 202 after a failed delivery: `uow.settleAfterCommit`) the record says the
// key is still running until the dispatcher settles it to that answer, so a replay on
// any server meanwhile gets 409, then the final answer.
import { isDeepStrictEqual } from 'node:util';
import type { Platform } from './platform.js';
import type { Store, Tx } from '../store/interfaces/db.js';
import type { IdempotencyRecord } from '../store/interfaces/idempotency.js';
import { AppError, idempotencyMismatch, validationError } from '../errors.js';
import { sha256 } from '../lib/hash.js';
import type { Clock } from './clock/clock.js';
import type { GroupScope } from '../store/interfaces/scope.js';
import { CHUNK_WRITE, yieldToOthers } from './clock/chunks.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a key whose answer is settled after its commit stays running at most (real
 * time): past nodemailer's longest wait (10 min socket timeout, 2 min to connect), so it
 * ends only when the server died before settling — then the answer recorded is replayed.
 */
export const SETTLE_BOUND_MS = 15 * 60_000;
export const MAX_KEY_LENGTH = 255;

/** Thrown inside a write when another request already completed with this key. */
export class IdempotentReplay extends Error {
  constructor(readonly record: IdempotencyRecord) {
    super('idempotent replay');
  }
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw validationError([{ path: 'Idempotency-Key', message: `must be 1 to ${MAX_KEY_LENGTH} characters` }]);
  }
}

export const requestHash = (method: string, path: string, rawBody: string): string => sha256(`${method} ${path}\n${rawBody}`);

/** 409: a request with the key has not given its answer yet. */
export const keyStillRunning = () => new AppError(409, 'idempotency_error', 'a request with this Idempotency-Key is still running; retry later');

/** A record whose answer is still being settled after its commit (on this or another server). */
const settling = (row: IdempotencyRecord) => row.settling_until !== null && row.settling_until > Date.now();

/** A completed record for this key, or undefined; 422 when the body differs, 409 while its answer is being settled. */
export async function findCompleted(store: Store, scope: string, key: string, hash: string): Promise<IdempotencyRecord | undefined> {
  const row = await store.repos.idempotency.find(store, scope, key);
  if (row && row.request_hash !== hash) throw idempotencyMismatch();
  if (row && settling(row)) throw keyStillRunning();
  return row;
}

export interface Answer {
  status: number;
  /** The JSON value sent. */
  body: unknown;
}

/** A copy of an answer as it is now (a result changed after the record must not look recorded). */
function snapshot<T>(body: T): T | undefined {
  try {
    return structuredClone(body);
  } catch {
    return undefined; // not a plain value: never taken for the recorded answer, so settle writes
  }
}

/** One request's claim on its key: open until a unit of work commits the record, then claimed. */
export class IdempotencyClaim {
  state: 'open' | 'claiming' | 'claimed' = 'open';
  /** The write claiming the key lost its connection during COMMIT: whether the record was saved is unknown. */
  outcomeUnknown = false;
  private recorded?: Answer;
  /** The record says the key is still running: settle must write the final answer. */
  private unsettled = false;

  constructor(
    readonly scope: string,
    readonly key: string,
    readonly hash: string,
    /** The route's success status: what the use case's result is answered with. */
    private readonly status: number,
    private readonly clock: Clock,
  ) {}

  /** Inside the unit of work, before its changes: a completed record ends the request as a replay. */
  async check(tx: Tx): Promise<void> {
    const row = await tx.repos.idempotency.find(tx, this.scope, this.key);
    if (!row) return;
    if (row.request_hash !== this.hash) throw idempotencyMismatch();
    if (settling(row)) throw keyStillRunning();
    throw new IdempotentReplay(row);
  }

  /** Inside the unit of work, after its changes: the record, answering with its result (or the answer the work already knows). */
  async record(tx: Tx, result: unknown, answer?: Answer, settleAfterCommit = false): Promise<void> {
    const { status, body } = answer ?? { status: this.status, body: result };
    this.unsettled = settleAfterCommit;
    tx.repos.idempotency.insert(tx, {
      group_id: this.scope,
      key: this.key,
      request_hash: this.hash,
      status,
      body,
      created_at: this.clock.nowIso(),
      settling_until: settleAfterCommit ? Date.now() + SETTLE_BOUND_MS : null,
    });
    this.recorded = { status, body: snapshot(body) };
  }

  /** After the request's answer is known: make the record say exactly that (one write, only when it differs). */
  async settle(store: Store, answer: Answer): Promise<void> {
    if (this.state !== 'claimed' || !this.recorded) return;
    if (!this.unsettled && this.recorded.status === answer.status && this.recorded.body !== undefined && isDeepStrictEqual(this.recorded.body, answer.body)) return;
    await store.write((tx) => tx.repos.idempotency.setAnswer(tx, this.scope, this.key, answer.status, answer.body));
    this.recorded = answer;
    this.unsettled = false;
  }
}

/** Keys deleted per write by the purge (a catch-up chunk's worth). */
const PURGE_CHUNK = 1000;

/** Scheduler job: forget the keys of `scope` older than 24 hours of their time (`until`), PURGE_CHUNK per write. */
export async function purgeIdempotencyKeys(p: Platform, until: Date, scope: GroupScope): Promise<number> {
  const before = new Date(until.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  let purged = 0;
  while (await p.db.repos.idempotency.hasOlderThan(p.db, before, scope)) {
    const { changes } = await p.db.write((tx) => tx.repos.idempotency.deleteOlderThan(tx, before, scope, PURGE_CHUNK), CHUNK_WRITE);
    purged += changes;
    if (changes === 0) break;
    await yieldToOthers();
  }
  return purged;
}
