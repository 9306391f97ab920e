// A sandbox's time to live (docs/sandboxes.md "Time to live"): dropped by the server once
// `ttl_ms` of real time passed without a request to it. `last_request_ms` (real time,
// ms) is written by each server's tick for the sandboxes it saw requests for since its
// last tick (one write a tick, not one a request). A table of its own, not columns of
// `groups`: a write to `groups` bumps config_version, which makes every server reload
// what each request looks up.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE sandbox_leases (
      group_id ${t.text} PRIMARY KEY REFERENCES groups(id),
      ttl_ms ${t.int} NOT NULL,
      last_request_ms ${t.int} NOT NULL
    )`,
];

export default { version: 37, name: 'sandbox-leases', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
