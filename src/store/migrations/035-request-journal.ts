// The request journal (docs/journal.md): every API call on a group, bounded per group
// (request_journal_groups counts what a group holds and what its bound dropped, and
// hands out its sequence numbers), and recordings become a view of it: a recording is
// the range of a group's journal between its start and its stop (from_seq, until_seq),
// so the calls it held before (sandbox_recording_calls) are gone.
import type { Version } from './migration.js';

export default {
  version: 35,
  name: 'request-journal',
  sqlite: [
    // A rowid table (rows of a few KiB go in at the end of its b-tree; WITHOUT ROWID would
    // keep them inside the key's), its group's order in an index of its own.
    `CREATE TABLE request_journal (
      id INTEGER PRIMARY KEY,
      group_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      request_id TEXT NOT NULL,
      at TEXT NOT NULL,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      route TEXT NOT NULL,
      status INTEGER NOT NULL,
      duration_ms REAL NOT NULL,
      idempotency_key TEXT,
      fault TEXT,
      recordable INTEGER NOT NULL,
      headers TEXT,
      body TEXT,
      answer TEXT,
      note TEXT,
      bytes INTEGER NOT NULL
    )`,
    'CREATE UNIQUE INDEX request_journal_seq ON request_journal (group_id, seq)',
    `CREATE TABLE request_journal_groups (
      group_id TEXT PRIMARY KEY,
      last_seq INTEGER NOT NULL,
      entries INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      dropped INTEGER NOT NULL
    )`,
    'DROP TABLE sandbox_recording_calls',
    'ALTER TABLE sandbox_recordings ADD COLUMN from_seq INTEGER NOT NULL DEFAULT 1',
    'ALTER TABLE sandbox_recordings ADD COLUMN until_seq INTEGER',
  ],
  // Bodies and answers are text on PostgreSQL too: the journal keeps the JSON text as it
  // was written and never queries inside it, so PostgreSQL need not parse it on insert.
  postgres: [
    `CREATE TABLE request_journal (
      group_id TEXT COLLATE "C" NOT NULL,
      seq BIGINT NOT NULL,
      request_id TEXT COLLATE "C" NOT NULL,
      at timestamptz NOT NULL,
      method TEXT COLLATE "C" NOT NULL,
      path TEXT COLLATE "C" NOT NULL,
      route TEXT COLLATE "C" NOT NULL,
      status BIGINT NOT NULL,
      duration_ms DOUBLE PRECISION NOT NULL,
      idempotency_key TEXT COLLATE "C",
      fault TEXT COLLATE "C",
      recordable BIGINT NOT NULL,
      headers TEXT COLLATE "C",
      body TEXT COLLATE "C",
      answer TEXT COLLATE "C",
      note TEXT COLLATE "C",
      bytes BIGINT NOT NULL,
      PRIMARY KEY (group_id, seq)
    )`,
    `CREATE TABLE request_journal_groups (
      group_id TEXT COLLATE "C" PRIMARY KEY,
      last_seq BIGINT NOT NULL,
      entries BIGINT NOT NULL,
      bytes BIGINT NOT NULL,
      dropped BIGINT NOT NULL
    )`,
    'DROP TABLE sandbox_recording_calls',
    'ALTER TABLE sandbox_recordings ADD COLUMN from_seq BIGINT NOT NULL DEFAULT 1',
    'ALTER TABLE sandbox_recordings ADD COLUMN until_seq BIGINT',
  ],
} satisfies Version;
