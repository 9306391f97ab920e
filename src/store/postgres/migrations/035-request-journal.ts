// PostgreSQL's migration 35 (the request journal; ../../sqlite/migrations/035-request-journal.ts
// says why). Bodies and answers are text: the journal keeps the JSON text as it was
// written and never queries inside it, so PostgreSQL need not parse it on insert.
import type { Migration } from '../../sqlite/migrations/index.js';

const requestJournal: Migration = {
  version: 35,
  name: 'request-journal',
  statements: [
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
};
export default requestJournal;
