// A plan update that reaches every active subscription of its plan (update_subscriptions)
// runs in chunks (docs/decisions.md#bulk-work): plan_update_jobs holds each one under way — the
// plan, the proration behaviour, the time of the update, the request that made it, and
// the last subscription id done — so the chunks go on where the last committed one
// stopped, after a kill -9 too (the server's tick).
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE plan_update_jobs (
      plan_id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL,
      linked_account_id ${t.text} NOT NULL,
      behavior ${t.text} NOT NULL,
      cursor ${t.text} NOT NULL DEFAULT '',
      updated_at ${t.text} NOT NULL,
      request_id ${t.text},
      idempotency_key ${t.text}
    )`,
  `CREATE INDEX plan_update_jobs_group ON plan_update_jobs(group_id)`,
];

export default { version: 25, name: 'plan-update-jobs', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
