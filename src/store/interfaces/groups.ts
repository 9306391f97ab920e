// What the group, processor, linked-account and API-key use cases need of a store, in
// domain entities; src/store implements it (repositories/groups.ts, api-keys.ts).
import type { Executor, RunResult, Tx } from '../interfaces/db.js';
import type { ApiKeyEntity, GroupEntity, LinkedAccountEntity, ProcessorEntity } from '../../domain/groups.js';
import type { ClockMode } from '../../domain/clock-modes.js';

export interface GroupStore {
  insert(tx: Tx, g: GroupEntity): Promise<void>;
  find(ex: Executor, id: string): Promise<GroupEntity | undefined>;
  list(ex: Executor): Promise<GroupEntity[]>;
  /** Whether a group is a sandbox (made by the sandbox API): the one-off fault header and recordings are only there. */
  isSandbox(ex: Executor, groupId: string): Promise<boolean>;
  exists(ex: Executor, groupId: string): Promise<boolean>;
}

export interface ProcessorStore {
  insert(tx: Tx, p: ProcessorEntity): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<ProcessorEntity | undefined>;
  listByGroup(ex: Executor, groupId: string): Promise<ProcessorEntity[]>;
}

export interface LinkedAccountStore {
  insert(tx: Tx, a: LinkedAccountEntity): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<LinkedAccountEntity | undefined>;
  listByGroup(ex: Executor, groupId: string): Promise<LinkedAccountEntity[]>;
}

export interface ApiKeyStore {
  insert(tx: Tx, k: ApiKeyEntity): Promise<void>;
  /** Several keys in one statement (a sandbox's key per permission kind). */
  insertMany(tx: Tx, keys: readonly ApiKeyEntity[]): Promise<void>;
  findByHash(ex: Executor, hash: string): Promise<ApiKeyEntity | undefined>;
  /** The key with its group's clock offset and status (authentication reads them at once). */
  findForAuth(ex: Executor, hash: string): Promise<(ApiKeyEntity & GroupClockColumns & { group_status: string }) | undefined>;
  find(ex: Executor, id: string): Promise<ApiKeyEntity | undefined>;
  list(ex: Executor, groupId?: string): Promise<ApiKeyEntity[]>;
  revoke(tx: Tx, id: string, at: string): Promise<{ changes: number }>;
}

/** A group's clock as its row holds it (src/domain/clock-modes.ts: clockOfRow reads it). */
export interface GroupClockColumns {
  clock_offset_ms: number;
  clock_mode: ClockMode;
  clock_rate: number;
  clock_at_ms: number;
  clock_since_ms: number;
}

/** A group made by the sandbox API, with its clock. */
export interface SandboxEntity extends GroupEntity, GroupClockColumns {}

export interface SandboxStore {
  insert(tx: Tx, g: SandboxEntity): Promise<void>;
  find(ex: Executor, id: string): Promise<SandboxEntity | undefined>;
  /** Oldest first. */
  list(ex: Executor): Promise<SandboxEntity[]>;
  /** A fork made whole: its own name and creation time (its other columns are the original's), status active. */
  nameFork(tx: Tx, id: string, name: string, at: string): Promise<RunResult>;
}
