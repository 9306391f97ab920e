// Onboarding (spec 15): signup forms (issued by the platform's administrator; an entry
// must name one) and the signup entries submitted against them. Each entry created its
// business account: a group in `pending_review` (groups.status). The entry is kept as
// JSON with ssn, itin and ein reduced to their last four (maskSensitive): the full
// numbers are never stored. status allows the later review outcomes too, so a review
// operation needs no table rebuild.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE signup_forms (
      id ${t.text} PRIMARY KEY,
      name ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL
    )`,
  `CREATE TABLE signup_entries (
      id ${t.text} PRIMARY KEY,
      signup_form_id ${t.text} NOT NULL REFERENCES signup_forms(id),
      external_id ${t.text},
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      status ${t.text} NOT NULL CHECK (status IN ('pending_review', 'approved', 'rejected')),
      business_name ${t.text} NOT NULL,
      entry_json ${t.json} NOT NULL,
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX signup_entries_form ON signup_entries(signup_form_id, created_at)`,
  `CREATE INDEX signup_entries_group ON signup_entries(group_id)`,
];

export default { version: 7, name: 'onboarding', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
