// The request context: what one operation runs for. The HTTP dispatcher builds it from
// the request (the API key's group, that group's clock, the store, the request id and
// Idempotency-Key); a command builds it from its flags. Use cases read the time from
// `ctx.clock`, never from the platform, so each group can keep its own time.
import { forGroup, type Platform } from './platform.js';
import type { Clock } from './clock/clock.js';
import type { Executor, Store } from '../store/interfaces/db.js';
import type { IdempotencyClaim } from './idempotency.js';
import type { Outcome } from '../processor/test-cards.js';
import { newId } from '../lib/ids.js';
import { PERMISSIONS, type Permission } from '../domain/permissions.js';

export type { Clock } from './clock/clock.js';

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
  /**
   * The permission kinds the caller holds: what it may read where reads are filtered by
   * them (the event log). An API key's kinds; every kind for an operator's command.
   */
  permissions: readonly Permission[];
  /** Set when the request carries an Idempotency-Key: the first unit of work claims it (unit-of-work.ts). */
  idempotency?: IdempotencyClaim;
  /** A sandbox's fault (decline, AVS/CVV mismatch, processor unavailable): the simulated processor answers this. */
  forcedOutcome?: Outcome;
}

/** A context that acts for one group (every keyed route, every command with --group). */
export interface GroupContext extends RequestContext {
  group: string;
}

export interface ContextOptions {
  requestId?: string;
  /** Default: every kind (an operator's command); the HTTP dispatcher passes the key's (none without one). */
  permissions?: readonly Permission[];
  idempotency?: IdempotencyClaim;
  forcedOutcome?: Outcome;
}

/**
 * The clock of `group`: `p` is the platform seen from that group (the dispatcher and
 * the command base give use cases that view), so its clock is the group's.
 */
export function clockOf(p: Platform, group: string | undefined): Clock {
  if (group !== undefined && p.groupId !== undefined && p.groupId !== group) {
    throw new Error(`a context for group ${group} needs the platform seen from it, not from ${p.groupId}`);
  }
  return p.clock;
}

/**
 * A public request (pay page, invoice page) acts for the group of the object it names,
 * found inside its unit of work: the same request from then on, on that group's clock.
 */
export async function actFor(platform: Platform, ctx: RequestContext, group: string, ex: Executor): Promise<{ p: Platform; ctx: GroupContext }> {
  const p = await forGroup(platform, group, ex);
  return { p, ctx: { ...ctx, group, clock: p.clock } };
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
    permissions: opts.permissions ?? PERMISSIONS,
    ...(opts.idempotency ? { idempotency: opts.idempotency } : {}),
    ...(opts.forcedOutcome ? { forcedOutcome: opts.forcedOutcome } : {}),
  };
}
