// The event log with one b-tree beside its rows instead of three, and no sqlite_sequence
// write per insert: every sale, auth and capture writes an event, so each b-tree is paid
// per write (BENCHMARKS.md, "Fourth round").
//
// What each read needs, and what serves it:
// - one event, the webhook sender's join, a stream resuming after an event id: `group_id`
//   and `id` → the UNIQUE (group_id, id) index (every read names the group; ids are UUID
//   v7, unique on their own, so UNIQUE (id) only duplicated it);
// - a group's list, newest first, pages before an id → the same index, walked backwards;
// - the stream (`seq > ? AND group_id = ?` in seq order), the log's end → the rowid.
// `created_from`/`created_to` of the list are filters on the rows the index walk reads,
// not an index of their own: an id cannot bound them, because created_at is the group's
// platform time — real time plus an offset that `clock set` moves backwards too, and
// clock work stamps its events with the time the work fell due. So a window far from
// the group's newest events reads every newer event of the group (measured in
// BENCHMARKS.md) — the price of not writing a (group_id, created_at) entry per event.
//
// `seq` without AUTOINCREMENT is the largest rowid plus one. That reuses positions when
// the newest rows are deleted, and a stream can miss events then: a stream that opened
// with no Last-Event-ID starts after the log's end, which may be another group's event;
// if that group's sandbox is dropped, the next events (of any group) take positions at
// or below the one the stream has passed, and neither the live stream nor a reconnect
// with that position sees them. (Nothing is sent twice either way: a stream sends only
// positions past its cursor, which only grows.) So the log's end never moves back: a
// sandbox drop that removes the last rows leaves a marker row at the old end (group '' —
// no group, never read through the API: every read names a group), replaced by the next
// such drop's (eventRepo.deleteGroup); the stream's feed relies on it when it moves to the
// log's end. Rows of a write that rolled back were never seen, so their positions may be
// reused. Below, a marker goes where the AUTOINCREMENT counter had got to, if rows past
// the largest position left had been deleted.
import webhooks from './015-webhooks.js';

const COLUMNS = 'seq, id, group_id, type, created_at, request_id, idempotency_key, data';
const deliveryTrigger = webhooks.statements.find((s) => s.startsWith('CREATE TRIGGER events_webhook_deliveries'))!;

export default {
  version: 18,
  name: 'events-one-index',
  statements: [
    `CREATE TABLE events_018 (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      group_id TEXT NOT NULL,
      type TEXT NOT NULL,
      created_at TEXT NOT NULL,
      request_id TEXT,
      idempotency_key TEXT,
      data TEXT NOT NULL
    )`,
    `INSERT INTO events_018 (${COLUMNS}) SELECT ${COLUMNS} FROM events ORDER BY seq`,
    `INSERT INTO events_018 (seq, id, group_id, type, created_at, data)
     SELECT s.seq, '', '', '', '', 'null' FROM sqlite_sequence s
     WHERE s.name = 'events' AND s.seq > (SELECT COALESCE(MAX(seq), 0) FROM events)`,
    // Drops its indexes and the webhook-delivery trigger with it.
    `DROP TABLE events`,
    `ALTER TABLE events_018 RENAME TO events`,
    `CREATE UNIQUE INDEX events_group_id ON events(group_id, id)`,
    // Dropped with the table: recreated exactly as migration 15 made it.
    deliveryTrigger,
  ],
};
