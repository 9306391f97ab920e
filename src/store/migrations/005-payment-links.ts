// Payment links and their session tokens. A link with amount NULL is an open-amount
// link (the payer names the amount). status is stored as available, paid or
// deactivated; `expired` is derived when read from expires_at and the platform clock
// (the value is allowed here so a later sweep can persist it). Session tokens are kept
// only as a SHA-256 hash, each scoped to one link, with their platform-time expiry.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE payment_links (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      processor_id ${t.text} NOT NULL REFERENCES processors(id),
      amount ${t.int},
      description ${t.text} NOT NULL,
      redirect_url ${t.text} NOT NULL DEFAULT '',
      card_enabled ${t.int} NOT NULL,
      ach_enabled ${t.int} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('available', 'paid', 'deactivated', 'expired')),
      expires_at ${t.text},
      paid_transaction_id ${t.text} REFERENCES transactions(id),
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX payment_links_group_created ON payment_links(group_id, created_at DESC, id DESC)`,
  `CREATE TABLE payment_link_sessions (
      token_hash ${t.text} PRIMARY KEY,
      payment_link_id ${t.text} NOT NULL REFERENCES payment_links(id),
      created_at ${t.text} NOT NULL,
      expires_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX payment_link_sessions_expires ON payment_link_sessions(expires_at)`,
];

export default { version: 5, name: 'payment-links', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
