// Notice that webhook attempts were recorded (and with them a collector's inbox
// messages), so a list waiting on them (`wait`: docs/testing.md) reads again at once.
// This process's records only: another process's are found by the waiting list's
// fallback poll (long-poll.ts).
import { EventEmitter } from 'node:events';

const bus = new EventEmitter();
bus.setMaxListeners(0);

/** Attempts of these groups were committed (by this process's sender). */
export function attemptsRecorded(groupIds: Iterable<string>): void {
  for (const g of new Set(groupIds)) bus.emit(g);
}

/** Call `fn` whenever attempts of `groupId` are recorded; returns the unsubscribe. */
export function onAttemptsRecorded(groupId: string, fn: () => void): () => void {
  bus.on(groupId, fn);
  return () => void bus.off(groupId, fn);
}
