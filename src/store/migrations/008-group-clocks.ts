// Sandboxes and a clock per group. A group's time is the platform clock plus its own
// clock_offset_ms; `sandbox` marks groups made by the sandbox API (only those can be
// dropped through it). E-mails record their group so dropping a sandbox drops them too.
// fork_id_map is the scratch table a fork maps old ids to new ones in (emptied by the
// same transaction). Indexes let a group's rows be found without a table scan.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `ALTER TABLE groups ADD COLUMN clock_offset_ms ${t.int} NOT NULL DEFAULT 0`,
  `ALTER TABLE groups ADD COLUMN sandbox ${t.int} NOT NULL DEFAULT 0`,
  `CREATE INDEX groups_clock ON groups(clock_offset_ms)`,
  `ALTER TABLE outbox ADD COLUMN group_id ${t.text}`,
  `CREATE INDEX outbox_group ON outbox(group_id)`,
  `CREATE INDEX customer_cards_group ON customer_cards(group_id)`,
  `CREATE INDEX customer_bank_accounts_group ON customer_bank_accounts(group_id)`,
  `CREATE INDEX payment_link_sessions_link ON payment_link_sessions(payment_link_id)`,
  `CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at)`,
  // Job progress is per group now (each at its own time); the scheduler keeps none.
  `DROP TABLE job_runs`,
  `CREATE TABLE fork_id_map (
      old_id ${t.text} PRIMARY KEY,
      new_id ${t.text} NOT NULL,
      secret ${t.text} NOT NULL
    )`,
];

export default { version: 8, name: 'group-clocks', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
