// A group can collect its own webhooks server-side (docs/testing.md, "The webhook inbox"):
// an endpoint of kind `collect` is delivered to like any other (the same trigger makes its
// deliveries, the same sender claims, signs and records them), but instead of a POST each
// attempt stores the message a receiver would have got — the body's exact text and its
// Standard Webhooks headers — in webhook_inbox, read by GET …/inbox. Keyed (group_id, id)
// in the order the inbox lists it, newest first.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The inbox as both stores make it, in either store's column types (../sql/ddl.ts); PostgreSQL's received_at is timestamptz (its own statement). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE webhook_inbox (
      group_id ${t.text} NOT NULL,
      id ${t.text} NOT NULL,
      endpoint_id ${t.text} NOT NULL,
      event_id ${t.text} NOT NULL,
      event_type ${t.text} NOT NULL,
      body ${t.text} NOT NULL,
      webhook_id ${t.text} NOT NULL,
      webhook_timestamp ${t.text} NOT NULL,
      webhook_signature ${t.text} NOT NULL,
      received_at ${t.text} NOT NULL,
      PRIMARY KEY (group_id, id)
    )${t.withoutRowid}`,
];

export default {
  version: 36,
  name: 'webhook-inbox',
  sqlite: [
    // Existing endpoints POST to their URL; a collector's url is '' (its inbox is its group's).
    `ALTER TABLE webhook_endpoints ADD COLUMN kind TEXT NOT NULL DEFAULT 'url'`,
    ...ddl(SQLITE_DDL),
  ],
  postgres: [
    `ALTER TABLE webhook_endpoints ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'url'`,
    ...ddl(POSTGRES_DDL),
    // Instants are timestamptz on PostgreSQL (migration 30); read back as SQLite's text.
    'ALTER TABLE webhook_inbox ALTER COLUMN received_at TYPE timestamptz USING received_at::timestamptz',
  ],
} satisfies Version;
