// What the platform's clock, settings, schedulers and sandboxes need of a store, beyond
// the capabilities' own repositories.
import type { Executor, RunResult, Tx } from './db.js';
import type { GroupScope } from './scope.js';
import type { InvoiceEntity } from '../../domain/catalog-entities.js';
import type { GroupClockSetting } from '../../domain/clock-modes.js';

/** The platform clock's offset from real time. */
export interface ClockStore {
  /** Read by every request (on the store's reader, shared by the requests that ask together). */
  offset(ex: Executor): Promise<number>;
  setOffset(tx: Tx, offsetMs: number): Promise<RunResult>;
}

/** Each group's own clock: its mode, and its offset added to the platform clock's when running. */
export interface GroupClockStore {
  get(ex: Executor, groupId: string): Promise<GroupClockSetting | undefined>;
  put(tx: Tx, groupId: string, setting: GroupClockSetting): Promise<RunResult>;
  /** The distinct offsets of running clocks, with how many groups have each (the scheduler runs once per offset). */
  distinctOffsets(ex: Executor): Promise<Array<{ offset_ms: number; groups: number }>>;
  /** Groups whose clock is accelerated, with their settings. */
  accelerated(ex: Executor): Promise<Array<{ id: string } & GroupClockSetting>>;
  /** The groups a pass of this offset works for (as the scope `{offsetMs}` selects them), by id. */
  groupsAtOffset(ex: Executor, offsetMs: number): Promise<string[]>;
}

/** Change counters: a cache keyed by one of them is good while it has not moved. */
export interface VersionStore {
  /** Groups, processors and API keys (bumped on every change to them). */
  config(ex: Executor): Promise<number>;
  /**
   * `config` and the platform clock's offset in one statement (of one snapshot): what
   * every request reads, because another process may have changed either.
   */
  configAndClock(ex: Executor): Promise<{ config: number; clockOffsetMs: number }>;
  /** The schema version the database is at (the newest migration applied). */
  schema(ex: Executor): Promise<number>;
}

export interface InvoicePastDueStore {
  /** Pending invoices of `scope` due before `cutoffDay` (YYYY-MM-DD) not yet notified, oldest due first. */
  candidates(ex: Executor, cutoffDay: string, scope: GroupScope, limit: number): Promise<InvoiceEntity[]>;
  /** The same, claimed by this write (a past-due chunk): rows another server's write holds are passed over. */
  claimCandidates(tx: Tx, cutoffDay: string, scope: GroupScope, limit: number): Promise<InvoiceEntity[]>;
  /** Record the notice; 0 changes when another process did, or the invoice was paid, archived or moved meanwhile. */
  markNotified(tx: Tx, id: string, dueDate: string, at: string): Promise<RunResult>;
}

/** Named values of the platform (demo state, saved report filters). */
export interface SettingsStore {
  get(ex: Executor, name: string): Promise<string | undefined>;
  put(tx: Tx, name: string, value: string): Promise<void>;
  /** A value kept as JSON (the column's encoding): undefined when there is none; a SyntaxError when its text is not JSON. */
  getJson(ex: Executor, name: string): Promise<unknown>;
  /** Keep `value` as JSON. */
  putJson(tx: Tx, name: string, value: unknown): Promise<void>;
}

/** Every row of one group at once: dropping and forking sandboxes. */
export interface GroupRowsStore {
  /** Remove every row of a group, children first, inside the caller's transaction. Returns rows deleted per table. */
  delete(tx: Tx, groupId: string): Promise<Record<string, number>>;
  /** Record a drop of the group in chunks (store/sql/group-drop.ts) and remove its API keys; returns keys removed. */
  beginDrop(tx: Tx, groupId: string, at: string): Promise<number>;
  /** One chunk of a drop from table `from` (the chunk before's `next`), until `over()`; `done` once the group itself is gone. */
  dropChunk(tx: Tx, groupId: string, over: () => boolean, from?: number): Promise<{ deleted: Record<string, number>; done: boolean; next: number }>;
  /** Drops not over yet. */
  pendingDrops(ex: Executor): Promise<string[]>;
  /** Count a group's rows per table. */
  count(ex: Executor, groupId: string): Promise<Record<string, number>>;
  /** Record a fork of group `from` into the new group `to`, named `name` (chunks copy it). */
  beginFork(tx: Tx, from: string, to: string, name: string, at: string): Promise<void>;
  /** One chunk of a fork's work, until `over()` (its budget); undefined when no such fork is under way. */
  forkChunk(tx: Tx, forkId: string, fresh: { id(): string; secret(): string }, over: () => boolean): Promise<ForkProgress | undefined>;
  /** A copied fork's id map and rows copied; it is marked whole (phase `clean`). Undefined unless its phase is `copied`. */
  finishFork(tx: Tx, forkId: string): Promise<FinishedFork | undefined>;
  /** A fork's progress (undefined once it is over), with its size. */
  forkProgress(ex: Executor, forkId: string): Promise<ForkProgress | undefined>;
  /** Forks not over yet. */
  pendingForks(ex: Executor): Promise<string[]>;
}

/** map: new ids are being given; copy: rows are being copied; copied: whole but not yet named nor given keys; clean: done, its map being forgotten; over: gone. */
export type ForkPhase = 'map' | 'copy' | 'copied' | 'clean' | 'over';

export interface ForkProgress {
  fork_id: string;
  source_id: string;
  name: string;
  phase: ForkPhase;
  /** The table the phase is at. */
  table: string | null;
  /** Rows copied so far, per table. */
  copied: Record<string, number>;
  /** From forkProgress only: rows given a new id so far, and the rows of the source now (what a whole copy will hold). */
  size?: { mapped: number; total: number };
}

/** A fork whose rows are all copied: its name, source, old → new ids (tables marked inIdMap) and rows copied per table. */
export interface FinishedFork {
  name: string;
  source_id: string;
  idMap: Record<string, string>;
  copied: Record<string, number>;
}
