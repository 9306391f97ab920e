// What webhook fault injection needs of a store; src/store implements it
// (repositories/webhook-faults.ts).
import type { Executor, RunResult, Tx } from './db.js';
import type { WebhookFaultRule } from '../../domain/faults.js';

export interface WebhookFaultRuleStore {
  insert(tx: Tx, r: WebhookFaultRule): Promise<void>;
  /** Rules of one endpoint, oldest first. */
  listByEndpoint(ex: Executor, groupId: string, endpointId: string): Promise<WebhookFaultRule[]>;
  /** Every rule, oldest first (a sender's in-memory copy). */
  listAll(ex: Executor): Promise<WebhookFaultRule[]>;
  counters(tx: Tx, ids: readonly string[]): Promise<Array<{ id: string; calls: number; fired: number }>>;
  setCounters(tx: Tx, id: string, calls: number, fired: number): Promise<RunResult>;
  remove(tx: Tx, groupId: string, endpointId: string, id: string): Promise<RunResult>;
}
