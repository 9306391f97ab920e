// A change counter for what every request looks up: groups, processors, API keys. The
// server keeps those rows in memory and reads only this counter per request, so a
// change by any process (`payctl key revoke` in another terminal) is seen by the next
// request. Triggers bump it, so no code path that changes these tables can forget to.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';
import { bumpFunction, bumpTrigger } from './postgres-functions.js';

const bump = (table: string, event: 'INSERT' | 'UPDATE' | 'DELETE') =>
  `CREATE TRIGGER ${table}_config_${event.toLowerCase()} AFTER ${event} ON ${table}
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE config_version (id ${t.int} PRIMARY KEY CHECK (id = 1), n ${t.int} NOT NULL)`,
  'INSERT INTO config_version (id, n) VALUES (1, 0)',
];

export default {
  version: 10,
  name: 'config-version',
  sqlite: [
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
    ...['groups', 'processors', 'api_keys'].flatMap((t) => (['INSERT', 'UPDATE', 'DELETE'] as const).map((e) => bump(t, e))),
  ],
  postgres: [
    ...ddl(POSTGRES_DDL),
    bumpFunction('payctl_config_bump', 'config_version'),
    ...['groups', 'processors', 'api_keys'].map((t) => bumpTrigger('payctl_config_bump', t)),
  ],
} satisfies Version;
