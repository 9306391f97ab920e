// The event log: one row per state change, written in the transaction that made the
// change (a transactional outbox). Rows are read newest first per group, so the index
// is (group_id, id): ids are UUID v7, ordered by creation. `seq` orders the log across
// processes for streams that resume after a position.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE events (
      seq ${t.serialKey},
      id ${t.text} NOT NULL UNIQUE,
      group_id ${t.text} NOT NULL,
      type ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL,
      request_id ${t.text},
      idempotency_key ${t.text},
      data ${t.text} NOT NULL
    )`,
  `CREATE INDEX events_group_id ON events(group_id, id)`,
  `CREATE INDEX events_group_created ON events(group_id, created_at)`,
];

export default { version: 12, name: 'events', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
