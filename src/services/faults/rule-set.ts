// The fault rules of one scope as the injectors use them (API calls: injector.ts; webhook
// attempts: webhook-injector.ts). The server keeps every rule of the scope in memory,
// by owner (a group, an endpoint), reloaded when config_version moves (adding or
// removing a rule bumps it; every request has read that counter already), so an owner
// without rules costs one map lookup and no database work. A call that active rules
// match counts a call of each in one write (the counters live in the database: the
// list commands show them, and a restart or a second server goes on with the same
// sequence); the first rule that fires decides.
import type { Store, Tx } from '../../store/interfaces/db.js';
import type { FaultRuleOf, FaultRuleStore, FaultScope } from '../../store/interfaces/faults.js';
import { configCache } from '../../store/config-cache.js';
import { fires } from '../../domain/faults.js';

export interface LoadedRules<S extends FaultScope> {
  version: number;
  byOwner: Map<string, Array<FaultRuleOf<S>>>;
  /** Which groups are sandboxes, as asked (the one-off header's check; scope api). */
  sandboxes: Map<string, boolean>;
}

/** Where each scope files its rules in memory: a group's API rules by group, a webhook rule by its endpoint. */
const OWNER_KEY: { [S in FaultScope]: (r: FaultRuleOf<S>) => string } = {
  api: (r) => r.group_id,
  webhook: (r) => r.endpoint_id,
};

const loaded: { [S in FaultScope]: WeakMap<Store, LoadedRules<S> | Promise<LoadedRules<S>>> } = { api: new WeakMap(), webhook: new WeakMap() };

/** The scope's rules under the current config_version, loaded once per version. */
export async function rulesNow<S extends FaultScope>(db: Store, scope: S): Promise<LoadedRules<S>> {
  const cache = configCache(db);
  const version = cache.currentVersion ?? (await cache.check(db));
  const map = loaded[scope] as WeakMap<Store, LoadedRules<S> | Promise<LoadedRules<S>>>;
  let current = map.get(db);
  if (current instanceof Promise) current = await current;
  if (current?.version === version) return current;
  const keyOf = OWNER_KEY[scope] as (r: FaultRuleOf<S>) => string;
  const store: FaultRuleStore<S> = db.repos.faultRules[scope];
  const loading = store.listAll(db).then((all) => {
    const byOwner = new Map<string, Array<FaultRuleOf<S>>>();
    for (const r of all) byOwner.set(keyOf(r), [...(byOwner.get(keyOf(r)) ?? []), r]);
    const next: LoadedRules<S> = { version, byOwner, sandboxes: new Map() };
    map.set(db, next);
    return next;
  });
  map.set(db, loading);
  return loading;
}

/** The scope's rules in memory when they are loaded under the current config_version, else undefined. */
export function rulesInMemory<S extends FaultScope>(db: Store, scope: S): LoadedRules<S> | undefined {
  const state = (loaded[scope] as WeakMap<Store, LoadedRules<S> | Promise<LoadedRules<S>>>).get(db);
  if (state === undefined || state instanceof Promise || state.version !== configCache(db).currentVersion) return undefined;
  return state;
}

/** One rule's fired call: the rule and its call number (1-based, counting the rule's matching calls). */
export interface FiredRule<R> {
  rule: R;
  call: number;
}

/**
 * Counts a call of each active rule inside `tx`; the first that fires decides (rules
 * removed meanwhile, or used up by their count, are passed over).
 */
export async function countAndChoose<S extends FaultScope>(tx: Tx, scope: S, active: ReadonlyArray<FaultRuleOf<S>>): Promise<FiredRule<FaultRuleOf<S>> | undefined> {
  const store: FaultRuleStore<S> = tx.repos.faultRules[scope];
  const counters = new Map((await store.counters(tx, active.map((r) => r.id))).map((c) => [c.id, c]));
  let chosen: FiredRule<FaultRuleOf<S>> | undefined;
  for (const r of active) {
    const c = counters.get(r.id);
    if (!c) continue; // removed meanwhile
    if (r.count !== undefined && c.fired >= r.count) continue; // used up
    const call = c.calls + 1;
    const fire = chosen === undefined && fires(r, call);
    if (fire) chosen = { rule: r, call };
    await store.setCounters(tx, r.id, call, c.fired + (fire ? 1 : 0));
  }
  return chosen;
}
