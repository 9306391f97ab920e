// What the platform's clock, settings, schedulers and sandboxes need of a store, beyond
// the capabilities' own repositories.
import type { Executor, RunResult, Tx } from './db.js';
import type { GroupScope } from './scope.js';
import type { InvoiceEntity } from '../../domain/catalog-entities.js';

/** The platform clock's offset from real time. */
export interface ClockStore {
  /** Read by every request (on the store's reader, shared by the requests that ask together). */
  offset(ex: Executor): Promise<number>;
  setOffset(tx: Tx, offsetMs: number): Promise<RunResult>;
}

/** Each group's own clock offset (added to the platform clock's). */
export interface GroupClockStore {
  offset(ex: Executor, groupId: string): Promise<number | undefined>;
  /** Move a group's offset; only forward (compare-and-set on the offset read). */
  setOffset(tx: Tx, groupId: string, from: number, to: number): Promise<RunResult>;
  put(tx: Tx, groupId: string, to: number): Promise<RunResult>;
  /** The distinct offsets in use, with how many groups have each (the scheduler runs once per offset). */
  distinctOffsets(ex: Executor): Promise<Array<{ offset_ms: number; groups: number }>>;
}

/** Change counters: a cache keyed by one of them is good while it has not moved. */
export interface VersionStore {
  /** Groups, processors and API keys (bumped on every change to them). */
  config(ex: Executor): Promise<number>;
}

export interface InvoicePastDueStore {
  /** Pending invoices of `scope` due before `cutoffDay` (YYYY-MM-DD) not yet notified, oldest due first. */
  candidates(ex: Executor, cutoffDay: string, scope: GroupScope, limit: number): Promise<InvoiceEntity[]>;
  /** Record the notice; 0 changes when another process did, or the invoice was paid, archived or moved meanwhile. */
  markNotified(tx: Tx, id: string, dueDate: string, at: string): Promise<RunResult>;
}

/** Named values of the platform (demo state, saved report filters). */
export interface SettingsStore {
  get(ex: Executor, name: string): Promise<string | undefined>;
  put(tx: Tx, name: string, value: string): Promise<void>;
}

/** Every row of one group at once: dropping and forking sandboxes. */
export interface GroupRowsStore {
  /** Remove every row of a group, children first, inside the caller's transaction. Returns rows deleted per table. */
  delete(tx: Tx, groupId: string): Promise<Record<string, number>>;
  /** Count a group's rows per table. */
  count(ex: Executor, groupId: string): Promise<Record<string, number>>;
  /**
   * Copy every row of group `from` into the new group `to` (same relationships, new ids)
   * inside the caller's transaction; `fresh` makes the new ids and secrets.
   */
  fork(tx: Tx, from: string, to: string, fresh: { id(): string; secret(): string }): Promise<{ copied: Record<string, number>; idMap: Record<string, string> }>;
}
