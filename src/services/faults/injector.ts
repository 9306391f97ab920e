// Which fault, if any, a request of a group gets: the group's API rules (scope api of the
// one rule store, in memory per config_version: rule-set.ts); the first active rule that
// matches the request and fires decides. The one-off Payctl-Simulate header is read by
// the HTTP layer (src/http/faults/simulate.ts), which asks here whether the group may use it.
import { forGroup, type Platform } from '../platform.js';
import type { Store, Tx } from '../../store/interfaces/db.js';
import { effectOf, inWindow, ruleMatches, type ApiFaultRule, type FaultOperation, type InjectedFault } from '../../domain/faults.js';
import type { Outcome } from '../../processor/test-cards.js';
import { countAndChoose, rulesInMemory, rulesNow } from './rule-set.js';

export interface FaultRequest {
  groupId: string;
  method: string;
  path: string;
  operation: FaultOperation | undefined;
}

/** The fault for this request (`p` seen from its group, for the rules' windows), or undefined. */
export async function injectFault(p: Platform, req: FaultRequest): Promise<InjectedFault | undefined> {
  const rules = (await rulesNow(p.db, 'api')).byOwner.get(req.groupId);
  if (!rules) return undefined;
  const matching = rules.filter((r) => ruleMatches(r, req));
  if (matching.length === 0) return undefined;
  const g = p.groupId === req.groupId ? p : await forGroup(p, req.groupId);
  const nowMs = g.clock.now().getTime();
  const active = matching.filter((r) => inWindow(r, nowMs));
  if (active.length === 0) return undefined;
  return p.db.write((tx) => chooseFault(tx, active));
}

/** Counts a call of each active rule inside `tx`; the fault of the first that fires. */
async function chooseFault(tx: Tx, active: ApiFaultRule[]): Promise<InjectedFault | undefined> {
  const fired = await countAndChoose(tx, 'api', active);
  return fired && { effect: effectOf(fired.rule, fired.call), rule: fired.rule.id, call: fired.call };
}

/** Whether a group may ask for a one-off fault (the Payctl-Simulate header): sandboxes only, remembered per config_version. */
export async function simulateAllowed(p: Platform, groupId: string): Promise<boolean> {
  const state = await rulesNow(p.db, 'api');
  let sandbox = state.sandboxes.get(groupId);
  if (sandbox === undefined) state.sandboxes.set(groupId, (sandbox = await p.db.repos.groups.isSandbox(p.db, groupId)));
  return sandbox;
}

/**
 * Whether any group may have a rule (or the rules are not loaded yet): the public pay path
 * looks up its link's group only then, so it costs nothing while no rule is set.
 */
export function mayFaultAnywhere(db: Store, simulate: boolean): boolean {
  if (simulate) return true;
  const state = rulesInMemory(db, 'api');
  return state === undefined || state.byOwner.size > 0;
}

/**
 * Whether a request of `groupId` may get a fault, answered from memory: false when the
 * rules loaded under the current config_version hold none of the group and no
 * Payctl-Simulate header was sent (the cost of faults when none is set). True when the
 * rules are not loaded yet: injectFault loads them.
 */
export function mayFault(db: Store, groupId: string, simulate: boolean): boolean {
  if (simulate) return true;
  const state = rulesInMemory(db, 'api');
  return state === undefined || state.byOwner.has(groupId);
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
  const state = rulesInMemory(db, 'api');
  const rules = state ? (state.byOwner.get(groupId) ?? []) : await tx.repos.faultRules.api.list(tx, { group_id: groupId });
  const active = rules.filter((r) => r.operation === 'subscription_charge' && inWindow(r, atMs));
  if (active.length === 0) return undefined;
  const fault = await chooseFault(tx, active);
  return fault && 'outcome' in fault.effect ? fault.effect.outcome : undefined;
}
