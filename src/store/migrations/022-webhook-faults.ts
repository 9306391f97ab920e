// Fault rules of a webhook endpoint (docs/faults.md), beside the API's (020): the rule as
// JSON, its seed and counters; adding or removing one bumps config_version, so a sender
// keeps them in memory and an endpoint without rules costs nothing. An attempt records
// the fault it got (`fault`, null for none): `webhook deliveries` shows it.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

const bump = (event: 'INSERT' | 'DELETE') =>
  `CREATE TRIGGER webhook_fault_rules_config_${event.toLowerCase()} AFTER ${event} ON webhook_fault_rules
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE webhook_fault_rules (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      endpoint_id ${t.text} NOT NULL,
      rule ${t.text} NOT NULL,
      seed ${t.int} NOT NULL,
      calls ${t.int} NOT NULL DEFAULT 0,
      fired ${t.int} NOT NULL DEFAULT 0,
      created_at ${t.text} NOT NULL
    )`,
  'CREATE INDEX webhook_fault_rules_endpoint ON webhook_fault_rules (endpoint_id, created_at)',
  `ALTER TABLE webhook_attempts ADD COLUMN fault ${t.text}`,
];

export default {
  version: 22,
  name: 'webhook-faults',
  sqlite: [
    // (The ALTER of webhook_attempts, last in this list once, runs before these triggers
    // now: they touch webhook_fault_rules only, so the schema made is the same.)
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
    bump('INSERT'),
    bump('DELETE'),
  ],
  postgres: [
    ...ddl(POSTGRES_DDL),
    'CREATE TRIGGER webhook_fault_rules_payctl_config_bump AFTER INSERT OR DELETE ON webhook_fault_rules FOR EACH STATEMENT EXECUTE FUNCTION payctl_config_bump()',
  ],
} satisfies Version;
