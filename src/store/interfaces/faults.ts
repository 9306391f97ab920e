// What fault injection needs of a store, in domain entities; src/store implements it
// (repositories/faults.ts).
import type { Executor, RunResult, Tx } from '../interfaces/db.js';
import type { ApiFaultRule } from '../../domain/faults.js';

export interface FaultRuleStore {
  insert(tx: Tx, r: ApiFaultRule): Promise<void>;
  /** Rules of one group, oldest first (the order rules are tried in). */
  listByGroup(ex: Executor, groupId: string): Promise<ApiFaultRule[]>;
  /** Every rule of every group, oldest first (a server's in-memory copy). */
  listAll(ex: Executor): Promise<ApiFaultRule[]>;
  /** The counters of some rules now (inside the write that moves them). */
  counters(tx: Tx, ids: readonly string[]): Promise<Array<{ id: string; calls: number; fired: number }>>;
  setCounters(tx: Tx, id: string, calls: number, fired: number): Promise<RunResult>;
  remove(tx: Tx, groupId: string, id: string): Promise<RunResult>;
  /** Whether a group is a sandbox (made by the sandbox API): the one-off header is allowed only there. */
  isSandbox(ex: Executor, groupId: string): Promise<boolean>;
  groupExists(ex: Executor, groupId: string): Promise<boolean>;
}
