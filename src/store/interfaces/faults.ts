// What fault injection needs of a store, in domain entities: one rule store with a scope.
// A sandbox's rules on its API calls (scope api, a group's) and on its webhook deliveries
// (scope webhook, an endpoint's of a group) are kept, listed, counted and removed alike;
// src/store implements it (repositories/faults.ts).
import type { Executor, RunResult, Tx } from './db.js';
import type { ApiFaultRule, WebhookFaultRule } from '../../domain/faults.js';

export type FaultScope = 'api' | 'webhook';

/** The rule of a scope, as the domain defines it. */
export type FaultRuleOf<S extends FaultScope> = S extends 'api' ? ApiFaultRule : WebhookFaultRule;

/** Whose rules: a group's (api), or one endpoint's of a group (webhook). */
export type FaultRuleOwner<S extends FaultScope> = S extends 'api' ? { group_id: string } : { group_id: string; endpoint_id: string };

export interface FaultRuleCounters {
  id: string;
  calls: number;
  fired: number;
}

export interface FaultRuleStore<S extends FaultScope> {
  readonly scope: S;
  insert(tx: Tx, r: FaultRuleOf<S>): Promise<void>;
  /** Rules of one owner, oldest first (the order rules are tried in). */
  list(ex: Executor, owner: FaultRuleOwner<S>): Promise<Array<FaultRuleOf<S>>>;
  /** Every rule of the scope, oldest first (a server's in-memory copy). */
  listAll(ex: Executor): Promise<Array<FaultRuleOf<S>>>;
  /** The counters of some rules now (inside the write that moves them). */
  counters(tx: Tx, ids: readonly string[]): Promise<FaultRuleCounters[]>;
  setCounters(tx: Tx, id: string, calls: number, fired: number): Promise<RunResult>;
  remove(tx: Tx, owner: FaultRuleOwner<S>, id: string): Promise<RunResult>;
}

/** The rule store of each scope. */
export type FaultRuleStores = { [S in FaultScope]: FaultRuleStore<S> };
