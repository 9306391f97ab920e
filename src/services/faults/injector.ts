// Which fault, if any, a request of a group gets. The server keeps every rule in memory,
// reloaded when config_version moves (adding or removing a rule bumps it; every request
// has read that counter already), so a group without rules costs one map lookup and no
// database work. A request that a rule matches counts a call of that rule in one write
// (the counters live in the database: `payctl fault list` shows them, and a restart or a
// second server goes on with the same sequence); the first rule that fires decides.
import { forGroup, type Platform } from '../platform.js';
import type { Store, Tx } from '../../store/interfaces/db.js';
import { configCache } from '../../store/config-cache.js';
import {
  effectOf,
  fires,
  inWindow,
  parseSimulate,
  ruleMatches,
  SIMULATE_HEADER,
  type ApiFaultRule,
  type FaultOperation,
  type InjectedFault,
} from '../../domain/faults.js';
import { validationError } from '../../errors.js';
import type { Outcome } from '../../processor/test-cards.js';

interface Loaded {
  version: number;
  byGroup: Map<string, ApiFaultRule[]>;
  sandboxes: Map<string, boolean>;
}

const loaded = new WeakMap<Store, Loaded | Promise<Loaded>>();

async function rulesNow(db: Store): Promise<Loaded> {
  const cache = configCache(db);
  const version = cache.currentVersion ?? (await cache.check(db));
  let current = loaded.get(db);
  if (current instanceof Promise) current = await current;
  if (current?.version === version) return current;
  const loading = db.repos.faultRules.listAll(db).then((all) => {
    const byGroup = new Map<string, ApiFaultRule[]>();
    for (const r of all) byGroup.set(r.group_id, [...(byGroup.get(r.group_id) ?? []), r]);
    const next: Loaded = { version, byGroup, sandboxes: new Map() };
    loaded.set(db, next);
    return next;
  });
  loaded.set(db, loading);
  return loading;
}

export interface FaultRequest {
  groupId: string;
  method: string;
  path: string;
  operation: FaultOperation | undefined;
  /** The Payctl-Simulate header, when sent. */
  simulate?: string;
}

/** The fault for this request (`p` seen from its group, for the rules' windows), or undefined. */
export async function injectFault(p: Platform, req: FaultRequest): Promise<InjectedFault | undefined> {
  const state = await rulesNow(p.db);
  if (req.simulate !== undefined) {
    if (req.simulate.length > 100) throw validationError([{ path: SIMULATE_HEADER, message: 'must be at most 100 characters' }]);
    let sandbox = state.sandboxes.get(req.groupId);
    if (sandbox === undefined) state.sandboxes.set(req.groupId, (sandbox = await p.db.repos.faultRules.isSandbox(p.db, req.groupId)));
    if (!sandbox) throw validationError([{ path: SIMULATE_HEADER, message: 'is allowed only on sandboxes (groups made by POST /api/v1/sandboxes)' }]);
    try {
      return { effect: parseSimulate(req.simulate, req.operation), rule: 'simulate' };
    } catch (err) {
      throw validationError([{ path: SIMULATE_HEADER, message: (err as Error).message }]);
    }
  }
  const rules = state.byGroup.get(req.groupId);
  if (!rules) return undefined;
  const matching = rules.filter((r) => ruleMatches(r, req));
  if (matching.length === 0) return undefined;
  const g = p.groupId === req.groupId ? p : await forGroup(p, req.groupId);
  const nowMs = g.clock.now().getTime();
  const active = matching.filter((r) => inWindow(r, nowMs));
  if (active.length === 0) return undefined;
  return p.db.write((tx) => countAndChoose(tx, active));
}

/** Counts a call of each active rule inside `tx`; the first that fires decides. */
async function countAndChoose(tx: Tx, active: ApiFaultRule[]): Promise<InjectedFault | undefined> {
  const counters = new Map((await tx.repos.faultRules.counters(tx, active.map((r) => r.id))).map((c) => [c.id, c]));
  let chosen: InjectedFault | undefined;
  for (const r of active) {
    const c = counters.get(r.id);
    if (!c) continue; // removed meanwhile
    if (r.count !== undefined && c.fired >= r.count) continue; // used up
    const call = c.calls + 1;
    const fire = chosen === undefined && fires(r, call);
    if (fire) chosen = { effect: effectOf(r, call), rule: r.id, call };
    await tx.repos.faultRules.setCounters(tx, r.id, call, c.fired + (fire ? 1 : 0));
  }
  return chosen;
}

/**
 * Whether a request of `groupId` may get a fault, answered from memory: false when the
 * rules loaded under the current config_version hold none of the group and no
 * Payctl-Simulate header was sent (the cost of faults when none is set). True when the
 * rules are not loaded yet: injectFault loads them.
 */
/**
 * Whether any group may have a rule (or the rules are not loaded yet): the public pay path
 * looks up its link's group only then, so it costs nothing while no rule is set.
 */
export function mayFaultAnywhere(db: Store, simulate: boolean): boolean {
  if (simulate) return true;
  const state = loaded.get(db);
  if (state === undefined || state instanceof Promise) return true;
  if (state.version !== configCache(db).currentVersion) return true;
  return state.byGroup.size > 0;
}

export function mayFault(db: Store, groupId: string, simulate: boolean): boolean {
  if (simulate) return true;
  const state = loaded.get(db);
  if (state === undefined || state instanceof Promise) return true;
  if (state.version !== configCache(db).currentVersion) return true;
  return state.byGroup.has(groupId);
}

/**
 * The fault of one charge the billing engine makes for a subscription of `groupId` (a
 * cycle or a retry) due at `atMs` of the group's clock, counted inside the billing write
 * `tx`: the count commits with the charge or not at all, so a billing run that is rolled
 * back and made again draws the same call. Only rules of operation subscription_charge
 * match (their processor answer is returned); the rules come from memory when loaded, else from `tx` (never a second connection
 * inside a write).
 */
export async function subscriptionChargeFault(tx: Tx, db: Store, groupId: string, atMs: number): Promise<Outcome | undefined> {
  const state = loaded.get(db);
  const current = state !== undefined && !(state instanceof Promise) && state.version === configCache(db).currentVersion;
  const rules = current ? (state.byGroup.get(groupId) ?? []) : await tx.repos.faultRules.listByGroup(tx, groupId);
  const active = rules.filter((r) => r.operation === 'subscription_charge' && inWindow(r, atMs));
  if (active.length === 0) return undefined;
  const fault = await countAndChoose(tx, active);
  return fault && 'outcome' in fault.effect ? fault.effect.outcome : undefined;
}
