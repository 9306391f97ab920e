// Sandboxes' time to live (src/services/sandboxes/leases.ts): how long each may go
// without a request (real time), and when it last had one.
import type { Executor, RunResult, Tx } from './db.js';

export interface LeaseStore {
  /** Give a sandbox a time to live, its last request at `nowMs`. */
  insert(tx: Tx, groupId: string, ttlMs: number, nowMs: number): Promise<void>;
  /** Give `to` a lease like `from`'s (none if `from` has none), its last request at `nowMs`. */
  copy(tx: Tx, from: string, to: string, nowMs: number): Promise<void>;
  /** Requests came for these sandboxes by `atMs`: their leases start again from then (never earlier). */
  touch(tx: Tx, groupIds: readonly string[], atMs: number): Promise<RunResult>;
  /** Sandboxes whose lease ran out by `nowMs`, at most `limit`, the longest expired first. */
  expired(ex: Executor, nowMs: number, limit: number): Promise<string[]>;
  /** Every lease (the sandbox list shows them). */
  list(ex: Executor): Promise<{ group_id: string; ttl_ms: number; last_request_ms: number }[]>;
  /** A sandbox's lease: its ttl and last request (ms). */
  find(ex: Executor, groupId: string): Promise<{ ttl_ms: number; last_request_ms: number } | undefined>;
}
