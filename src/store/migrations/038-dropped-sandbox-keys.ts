// The keys of dropped sandboxes, by fingerprint (docs/sandboxes.md "After a drop"): a call
// with a key of a sandbox dropped lately — its ttl ran out, or a DELETE dropped it — is told
// so, not "unknown API key". Only the key's SHA-256 (as api_keys keeps it), never the key;
// kept a week and at most 10,000 keys (src/services/sandboxes/dropped-keys.ts), the oldest
// forgotten first. No reference to groups: the group is gone.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE dropped_sandbox_keys (
      key_hash ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL,
      name ${t.text} NOT NULL,
      reason ${t.text} NOT NULL,
      ttl_ms ${t.int},
      dropped_ms ${t.int} NOT NULL
    )`,
  'CREATE INDEX dropped_sandbox_keys_age ON dropped_sandbox_keys (dropped_ms)',
];

export default { version: 38, name: 'dropped-sandbox-keys', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
