// A rotated-out signing secret stays valid for a grace period: the endpoint keeps the
// secret it replaced and until when (the group's time) deliveries are also signed with it,
// so a receiver that has not switched yet keeps verifying. Only the last one replaced.
//
// And one index fewer per attempt: no query reads attempts by delivery (they are listed
// by endpoint), so webhook_attempts_delivery only cost every attempt's insert a b-tree.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `ALTER TABLE webhook_endpoints ADD COLUMN previous_secret ${t.text}`,
  `ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at ${t.text}`,
  `DROP INDEX webhook_attempts_delivery`,
];

export default { version: 17, name: 'webhook-secret-grace', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
