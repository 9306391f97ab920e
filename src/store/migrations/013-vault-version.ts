// A change counter for stored customers and their cards: the server keeps the customer
// and card a stored-card sale reads in memory and reads only this counter (a read shared
// by the requests that ask together), so a change by any process is seen by the next
// request. Triggers bump it, so no code path that changes these rows can forget to. A
// new row needs no bump: nothing cached can be out of date because of it.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';
import { bumpFunction } from './postgres-functions.js';

const bump = (table: string, event: 'UPDATE' | 'DELETE') =>
  `CREATE TRIGGER ${table}_vault_${event.toLowerCase()} AFTER ${event} ON ${table}
BEGIN
  UPDATE vault_version SET n = n + 1 WHERE id = 1;
END`;

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE vault_version (id ${t.int} PRIMARY KEY CHECK (id = 1), n ${t.int} NOT NULL)`,
  'INSERT INTO vault_version (id, n) VALUES (1, 0)',
];

export default {
  version: 13,
  name: 'vault-version',
  sqlite: [
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
    ...['customers', 'customer_cards'].flatMap((t) => (['UPDATE', 'DELETE'] as const).map((e) => bump(t, e))),
  ],
  postgres: [
    ...ddl(POSTGRES_DDL),
    bumpFunction('payctl_vault_bump', 'vault_version'),
    `CREATE TRIGGER customers_payctl_vault_bump AFTER UPDATE OR DELETE ON customers FOR EACH STATEMENT EXECUTE FUNCTION payctl_vault_bump()`,
    `CREATE TRIGGER customer_cards_payctl_vault_bump AFTER UPDATE OR DELETE ON customer_cards FOR EACH STATEMENT EXECUTE FUNCTION payctl_vault_bump()`,
  ],
} satisfies Version;
