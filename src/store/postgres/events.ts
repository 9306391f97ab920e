// The event log on PostgreSQL: positions without one lock through every COMMIT.
//
// Positions (`seq`) come from a sequence as each event is inserted, so they are not in
// commit order: a write holding position 7 may commit after one holding 8. A reader must
// then never pass a position that an open write may still commit. Each write that appends
// events first takes a transaction lock of its own (EVENTS_WRITER_LOCK, its backend's pid:
// writers never wait for each other), and a reader asks `payctl_events_watermark()`
// (migration 32) how far the log is final: the sequence's last value, once every write
// holding a writer lock at that moment has ended. Readers then read only up to that
// position. Commits of event-writing writes no longer go one at a time (the position lock
// this replaces was held from a write's first event through its COMMIT's WAL flush).
import type { EventStore } from '../interfaces/events.js';
import { sqliteRepositories } from '../sqlite/repositories/index.js';

/** The advisory lock class of event writers (the key's second half is the writer's backend pid). */
export const EVENTS_WRITER_LOCK = 7_262_012;

/** How far every position is final (0: an empty log). */
const watermark = async (ex: Parameters<EventStore['lastSeq']>[0]): Promise<number> =>
  Number((await ex.get<{ seq: number | string }>('SELECT payctl_events_watermark() AS seq'))?.seq ?? 0);

const base = sqliteRepositories.events;

export const pgEventRepo: EventStore = {
  ...base,
  lastSeq: watermark,
  async after(ex, groupId, seq, limit) {
    // The bound first, in a statement of its own: the read then sees every write that ended
    // before it. Rows past the bound (committed since) are left for the next read; the
    // page stays a prefix of the log in position order.
    const upTo = await watermark(ex);
    if (upTo <= seq) return [];
    return (await base.after(ex, groupId, seq, limit)).filter((e) => e.seq <= upTo);
  },
};
