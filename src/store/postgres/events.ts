// The event log on PostgreSQL: positions without one lock through every COMMIT.
//
// Positions (`seq`) come from a sequence as each event is inserted, so they are not in
// commit order: a write holding position 7 may commit after one holding 8. A reader must
// then never pass a position that an open write may still commit. Each write that appends
// events first takes a transaction lock of its own (EVENTS_WRITER_LOCK, its backend's pid:
// writers never wait for each other), and a reader asks `payctl_events_watermark()`
// (migration 32) for the sequence's last value and the writes holding a writer lock at
// that moment, and waits until those have ended: every position up to that value is then
// final. Readers read only up to that position. Commits of event-writing writes no longer go one at a time (the position lock
// this replaces was held from a write's first event through its COMMIT's WAL flush).
import type { EventStore } from '../interfaces/events.js';
import { sharedRepositories } from '../sql/repositories/index.js';
import { EVENTS_WRITER_LOCK } from '../migrations/032-events-watermark.js';

/** The advisory lock class of event writers, defined beside the watermark function that reads it (migration 32). */
export { EVENTS_WRITER_LOCK };

type Executor = Parameters<EventStore['lastSeq']>[0];

/** Polling a write's end: first after this, doubling up to the cap (a sale's write lasts a few ms). */
const POLL_FIRST_MS = 1;
const POLL_MAX_MS = 25;

/**
 * How far every position is final (0: an empty log): the sequence's last value once the
 * writes that held a writer lock when it was read have ended. Their end is polled, each
 * check a statement of its own (no connection is held while waiting).
 */
async function watermark(ex: Executor): Promise<number> {
  const w = await ex.get<{ high: number | string; writers: string[] }>('SELECT high, writers FROM payctl_events_watermark()');
  const high = Number(w?.high ?? 0);
  let open = w?.writers ?? [];
  for (let wait = POLL_FIRST_MS; open.length > 0; wait = Math.min(POLL_MAX_MS, wait * 2)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    open = (
      await ex.all<{ writer: string }>(
        `SELECT virtualtransaction AS writer FROM pg_locks WHERE locktype = 'advisory' AND classid = ${EVENTS_WRITER_LOCK} AND objsubid = 2 AND virtualtransaction IN ${ex.dialect.jsonValues()}`,
        [JSON.stringify(open)],
      )
    ).map((r) => r.writer);
  }
  return high;
}

const base = sharedRepositories.events;

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
