// A group's clock has a mode (docs/clock.md "Clock modes"): `running` (the platform clock
// plus clock_offset_ms, as before), `frozen` (stands at clock_at_ms until moved) or
// `accelerated` (clock_at_ms at the real instant clock_since_ms, then clock_rate ms per
// real ms). Kept on the group's row with the offset, so every server reads one truth:
// an UPDATE of groups bumps config_version, which each request already reads.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `ALTER TABLE groups ADD COLUMN clock_mode ${t.text} NOT NULL DEFAULT 'running'`,
  `ALTER TABLE groups ADD COLUMN clock_rate ${t.int} NOT NULL DEFAULT 1`,
  `ALTER TABLE groups ADD COLUMN clock_at_ms ${t.int} NOT NULL DEFAULT 0`,
  `ALTER TABLE groups ADD COLUMN clock_since_ms ${t.int} NOT NULL DEFAULT 0`,
];

export default { version: 34, name: 'clock-modes', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
