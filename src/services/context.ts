// The request context: what one operation runs for. The HTTP dispatcher builds it from
// the request (the API key's group, that group's clock, the store, the request id and
// Idempotency-Key); a command builds it from its flags. Use cases read the time from
// `ctx.clock`, never from the platform, so each group can keep its own time.
import type { Platform } from './platform.js';
import type { Clock } from './clock.js';
import type { Store } from '../store/db.js';
import type { IdempotencyClaim } from './idempotency.js';
import { newId } from '../lib/ids.js';

export type { Clock } from './clock.js';

export interface RequestInfo {
  /** Unique per request (HTTP) or command run. */
  id: string;
  idempotency_key?: string;
}

export interface RequestContext {
  /** The group the caller acts for: the API key's group, or the command's --group; none on public routes. */
  group: string | undefined;
  /** That group's clock. */
  clock: Clock;
  store: Store;
  request: RequestInfo;
  /** Set when the request carries an Idempotency-Key: the first unit of work claims it (unit-of-work.ts). */
  idempotency?: IdempotencyClaim;
}

/** A context that acts for one group (every keyed route, every command with --group). */
export interface GroupContext extends RequestContext {
  group: string;
}

export interface ContextOptions {
  requestId?: string;
  idempotency?: IdempotencyClaim;
}

/** The clock of `group`; today every group runs on the platform clock. */
export function clockOf(p: Platform, _group: string | undefined): Clock {
  return p.clock;
}

/** The context of an operation for `group`. */
export function contextFor(p: Platform, group: string, opts?: ContextOptions): GroupContext;
export function contextFor(p: Platform, group: string | undefined, opts?: ContextOptions): RequestContext;
export function contextFor(p: Platform, group: string | undefined, opts: ContextOptions = {}): RequestContext {
  return {
    group,
    clock: clockOf(p, group),
    store: p.db,
    request: { id: opts.requestId ?? newId(), ...(opts.idempotency ? { idempotency_key: opts.idempotency.key } : {}) },
    ...(opts.idempotency ? { idempotency: opts.idempotency } : {}),
  };
}
