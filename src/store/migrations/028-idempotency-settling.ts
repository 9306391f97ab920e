// An Idempotency-Key whose answer is known only after its commit (an onboarding 202 when
// the confirmation e-mail fails) is recorded as still running until its answer is
// settled: `settling_until` (real time, ms) — a replay before then, on any server, gets
// 409; past it (the server died before settling) the recorded answer is replayed.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `ALTER TABLE idempotency_keys ADD COLUMN settling_until ${t.int}`,
];

export default { version: 28, name: 'idempotency-settling', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
