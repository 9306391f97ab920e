// Onboarding (spec 15): signup forms (issued by the platform's administrator; an entry
// must name one) and the signup entries submitted against them. Each entry created its
// business account: a group in `pending_review` (groups.status). The entry is kept as
// JSON with ssn, itin and ein reduced to their last four (maskSensitive): the full
// numbers are never stored. status allows the later review outcomes too, so a review
// operation needs no table rebuild.
export default {
  version: 7,
  name: 'onboarding',
  statements: [
    `CREATE TABLE signup_forms (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE signup_entries (
      id TEXT PRIMARY KEY,
      signup_form_id TEXT NOT NULL REFERENCES signup_forms(id),
      external_id TEXT,
      group_id TEXT NOT NULL REFERENCES groups(id),
      status TEXT NOT NULL CHECK (status IN ('pending_review', 'approved', 'rejected')),
      business_name TEXT NOT NULL,
      entry_json TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX signup_entries_form ON signup_entries(signup_form_id, created_at)`,
    `CREATE INDEX signup_entries_group ON signup_entries(group_id)`,
  ],
};
