// The keys of sandboxes dropped lately, by fingerprint (src/services/sandboxes/dropped-keys.ts):
// what a call with one of them is told instead of "unknown API key".
import type { Executor, Tx } from './db.js';

/** Why a sandbox went: its time to live ran out, or a drop (DELETE /api/v1/sandboxes/{group_id}) removed it. */
export type DropReason = 'ttl' | 'drop';

export interface DroppedKey {
  group_id: string;
  name: string;
  reason: DropReason;
  /** The ttl that ran out (ms), for reason `ttl`. */
  ttl_ms: number | null;
  /** When it was dropped (real time, ms). */
  dropped_ms: number;
}

export interface DroppedKeyStore {
  /** Note every key of `groupId` (before they are deleted) as dropped at `nowMs`; forget those noted before `forgetBeforeMs` and past the newest `keep`. */
  record(tx: Tx, groupId: string, reason: DropReason, ttlMs: number | null, nowMs: number, forget: { beforeMs: number; keep: number }): Promise<void>;
  /** The dropped sandbox a key (its SHA-256) belonged to, if noted and not yet forgotten. */
  find(ex: Executor, keyHash: string): Promise<DroppedKey | undefined>;
}
