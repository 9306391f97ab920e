// A fork of a sandbox runs in chunks (docs/decisions.md#bulk-work): fork_jobs holds each
// fork under way (its new group's id, its source, which phase, table and row it is at,
// rows copied so far) and fork_map its ids old → new, kept per fork so a fork resumes
// after a kill -9 where its last committed chunk stopped. They replace the single
// transaction's scratch table fork_id_map. A group named in fork_jobs (not yet
// finished) is left out of every group's due work until its copy is whole.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `DROP TABLE fork_id_map`,
  `CREATE TABLE fork_jobs (
      fork_id ${t.text} PRIMARY KEY,
      source_id ${t.text} NOT NULL,
      name ${t.text} NOT NULL,
      phase ${t.text} NOT NULL,
      step ${t.int} NOT NULL DEFAULT 0,
      cursor ${t.text} NOT NULL DEFAULT '',
      copied ${t.text} NOT NULL DEFAULT '{}',
      created_at ${t.text} NOT NULL
    )`,
  `CREATE TABLE fork_map (
      fork_id ${t.text} NOT NULL,
      tbl ${t.text} NOT NULL,
      old_id ${t.text} NOT NULL,
      new_id ${t.text} NOT NULL,
      secret ${t.text} NOT NULL,
      PRIMARY KEY (fork_id, old_id)
    )`,
  `CREATE INDEX fork_map_table ON fork_map(fork_id, tbl)`,
];

export default { version: 23, name: 'fork-jobs', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
