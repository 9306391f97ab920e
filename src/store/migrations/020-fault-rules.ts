// Fault rules of a sandbox (docs/faults.md): the rule as JSON (its shape is the domain's
// schema), its seed, and its counters (matching calls seen, calls fired). Adding or
// removing a rule bumps config_version, the counter every request already reads, so a
// server keeps the rules in memory and a group without rules costs no read at all;
// counting a call (an UPDATE) does not bump it.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

const bump = (event: 'INSERT' | 'DELETE') =>
  `CREATE TRIGGER fault_rules_config_${event.toLowerCase()} AFTER ${event} ON fault_rules
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE fault_rules (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      rule ${t.text} NOT NULL,
      seed ${t.int} NOT NULL,
      calls ${t.int} NOT NULL DEFAULT 0,
      fired ${t.int} NOT NULL DEFAULT 0,
      created_at ${t.text} NOT NULL
    )`,
  'CREATE INDEX fault_rules_group ON fault_rules (group_id, created_at)',
];

export default {
  version: 20,
  name: 'fault-rules',
  sqlite: [
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
    bump('INSERT'),
    bump('DELETE'),
  ],
  postgres: [
    ...ddl(POSTGRES_DDL),
    'CREATE TRIGGER fault_rules_payctl_config_bump AFTER INSERT OR DELETE ON fault_rules FOR EACH STATEMENT EXECUTE FUNCTION payctl_config_bump()',
  ],
} satisfies Version;
