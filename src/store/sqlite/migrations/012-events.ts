// The event log: one row per state change, written in the transaction that made the
// change (a transactional outbox). Rows are read newest first per group, so the index
// is (group_id, id): ids are UUID v7, ordered by creation. `seq` orders the log across
// processes for streams that resume after a position.
export default {
  version: 12,
  name: 'events',
  statements: [
    `CREATE TABLE events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      group_id TEXT NOT NULL,
      type TEXT NOT NULL,
      created_at TEXT NOT NULL,
      request_id TEXT,
      idempotency_key TEXT,
      data TEXT NOT NULL
    )`,
    `CREATE INDEX events_group_id ON events(group_id, id)`,
    `CREATE INDEX events_group_created ON events(group_id, created_at)`,
  ],
};
