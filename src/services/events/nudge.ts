// Notice that events were committed, so a stream sends them at once instead of at its
// next poll: this process's commits through an in-process bus, other servers' through
// the store's notices (PostgreSQL: LISTEN/NOTIFY). With SQLite one process writes the
// file; other processes' events (a CLI command's) are found by the stream's poll.
import { EventEmitter } from 'node:events';
import type { Store, Tx } from '../../store/interfaces/db.js';
import { telemetry } from '../telemetry.js';

const bus = new EventEmitter();
bus.setMaxListeners(0);
const pending = new WeakMap<Tx, { groups: Set<string>; events: number }>();

/** Tell this process's listeners of `groupId` once `tx` has committed (once per transaction and group); called per event appended. */
export function nudgeAfterCommit(tx: Tx, groupId: string): void {
  let these = pending.get(tx);
  if (!these) {
    const mine = (these = { groups: new Set<string>(), events: 0 });
    pending.set(tx, mine);
    tx.afterCommit(() => {
      telemetry.eventsAppended += mine.events;
      for (const g of mine.groups) bus.emit(g);
    });
  }
  these.groups.add(groupId);
  these.events++;
}

/**
 * Call `fn` whenever events of `groupId` were committed: by this process, or by any server
 * on `store`'s database (also when its notices may have been missed); returns the unsubscribe.
 */
export function onEventsCommitted(store: Store, groupId: string, fn: () => void): () => void {
  bus.on(groupId, fn);
  const offRemote = store.notices?.onEvents((n) => {
    if ('all' in n || n.groups.includes(groupId)) fn();
  });
  return () => {
    bus.off(groupId, fn);
    offRemote?.();
  };
}
