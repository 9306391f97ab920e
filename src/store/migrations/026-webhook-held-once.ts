// A delivery a webhook fault held back (delay, reorder) is held at most once: the mark
// lives on the delivery row, so it holds after a restart and when another server (one
// PostgreSQL, several servers) makes the next attempt.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `ALTER TABLE webhook_deliveries ADD COLUMN held_once ${t.int} NOT NULL DEFAULT 0`,
];

export default { version: 26, name: 'webhook-held-once', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
