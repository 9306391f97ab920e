// In-process notice that events were committed, so a stream of this process sends them
// at once instead of at its next poll (events written by other processes on the same
// database are found by that poll).
import { EventEmitter } from 'node:events';
import type { Tx } from '../../store/interfaces/db.js';

const bus = new EventEmitter();
bus.setMaxListeners(0);
const pending = new WeakMap<Tx, Set<string>>();

/** Tell this process's listeners of `groupId` once `tx` has committed (once per transaction and group). */
export function nudgeAfterCommit(tx: Tx, groupId: string): void {
  let groups = pending.get(tx);
  if (!groups) {
    groups = new Set();
    pending.set(tx, groups);
    const these = groups;
    tx.afterCommit(() => {
      for (const g of these) bus.emit(g);
    });
  }
  groups.add(groupId);
}

/** Call `fn` whenever events of `groupId` were committed by this process; returns the unsubscribe. */
export function onEventsCommitted(groupId: string, fn: () => void): () => void {
  bus.on(groupId, fn);
  return () => bus.off(groupId, fn);
}
