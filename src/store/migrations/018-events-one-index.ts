// The event log with one b-tree beside its rows instead of three: every sale, auth and
// capture writes an event, so each b-tree is paid per write (docs/benchmarks/writes.md, "Fourth round").
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
// docs/benchmarks/writes.md) — the price of not writing a (group_id, created_at) entry per event.
//
// `seq` keeps AUTOINCREMENT: positions are never reused, also when a sandbox drop deletes
// the log's newest rows — a stream past such a position must still see the next events.
// Without it (the largest rowid plus one) those events would take positions the stream
// has passed; what it saved (~3 µs and one 4 KB page per batch) was below what the server
// bench resolves. The counter is carried over (it may be past the largest row left).
import type { Version } from './migration.js';
import webhooks from './015-webhooks.js';

const COLUMNS = 'seq, id, group_id, type, created_at, request_id, idempotency_key, data';
const deliveryTrigger = webhooks.sqlite.find((s) => s.startsWith('CREATE TRIGGER events_webhook_deliveries'))!;

export default {
  version: 18,
  name: 'events-one-index',
  sqlite: [
    `CREATE TABLE events_018 (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL,
      group_id TEXT NOT NULL,
      type TEXT NOT NULL,
      created_at TEXT NOT NULL,
      request_id TEXT,
      idempotency_key TEXT,
      data TEXT NOT NULL
    )`,
    `INSERT INTO events_018 (${COLUMNS}) SELECT ${COLUMNS} FROM events ORDER BY seq`,
    `DELETE FROM sqlite_sequence WHERE name = 'events_018'`,
    `INSERT INTO sqlite_sequence (name, seq) SELECT 'events_018', seq FROM sqlite_sequence WHERE name = 'events'`,
    // Drops its indexes, its counter and the webhook-delivery trigger with it (the rename moves the new counter).
    `DROP TABLE events`,
    `ALTER TABLE events_018 RENAME TO events`,
    `CREATE UNIQUE INDEX events_group_id ON events(group_id, id)`,
    // Dropped with the table: recreated exactly as migration 15 made it.
    deliveryTrigger,
  ],
  postgres: [
    'ALTER TABLE events DROP CONSTRAINT events_id_key',
    'DROP INDEX events_group_id',
    'DROP INDEX events_group_created',
    'CREATE UNIQUE INDEX events_group_id ON events(group_id, id)',
  ],
} satisfies Version;
