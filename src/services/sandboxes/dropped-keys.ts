// What a call with a key of a dropped sandbox is told (docs/sandboxes.md "After a drop"):
// not "unknown API key" but that its sandbox was dropped, and why — its time to live ran
// out, or a drop removed it. A drop notes its keys' fingerprints (SHA-256, never the keys)
// in the transaction that removes them; a note is kept FORGET_AFTER_MS and at most
// KEEP_KEYS notes in all (the oldest forgotten first), then the key is unknown again.
// Read only when a key is unknown: a known key's call never reads it.
import type { Executor, Tx } from '../../store/interfaces/db.js';
import type { DroppedKey, DropReason } from '../../store/interfaces/dropped-keys.js';

/** How long a dropped sandbox's keys are remembered (real time): a week. */
export const FORGET_AFTER_MS = 7 * 24 * 3600 * 1000;
/** Keys remembered at most (a sandbox has one per permission set: about a thousand sandboxes). */
export const KEEP_KEYS = 10_000;

/** Note the keys of `groupId`, about to be deleted with it, as dropped now (real time). */
export function noteDroppedKeys(tx: Tx, groupId: string, reason: DropReason, ttlMs: number | null = null, nowMs = Date.now()): Promise<void> {
  return tx.repos.droppedKeys.record(tx, groupId, reason, ttlMs, nowMs, { beforeMs: nowMs - FORGET_AFTER_MS, keep: KEEP_KEYS });
}

/** The message for a call with a key whose SHA-256 is `keyHash`, if its sandbox was dropped lately. */
export async function droppedKeyMessage(ex: Executor, keyHash: string): Promise<string | undefined> {
  const d = await ex.repos.droppedKeys.find(ex, keyHash);
  return d && droppedMessage(d);
}

/** A ttl as the API takes it: `1h`, `30m`, `90s`. */
const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s % 3600 === 0 ? `${s / 3600}h` : s % 60 === 0 ? `${s / 60}m` : `${s}s`;
};

export function droppedMessage(d: DroppedKey): string {
  const at = new Date(d.dropped_ms).toISOString();
  const why = d.reason === 'ttl' ? ` because its ttl${d.ttl_ms === null ? '' : ` of ${duration(d.ttl_ms)}`} expired without a request` : ' (DELETE /api/v1/sandboxes/{group_id})';
  return `this API key's sandbox ${d.group_id} ("${d.name}") was dropped at ${at}${why}; make a new sandbox (POST /api/v1/sandboxes)`;
}
