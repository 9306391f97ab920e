import type { Executor, Tx } from '../db.js';

export interface SignupFormRow {
  id: string;
  name: string;
  created_at: string;
}

export interface SignupEntryRow {
  id: string;
  signup_form_id: string;
  external_id: string | null;
  /** The business account (group) the entry created. */
  group_id: string;
  status: 'pending_review' | 'approved' | 'rejected';
  business_name: string;
  /** The validated entry as JSON, ssn/itin/ein masked to their last four. */
  entry_json: string;
  created_at: string;
}

export const signupFormRepo = {
  async insert(ex: Tx, f: SignupFormRow) {
    await ex.run('INSERT INTO signup_forms (id, name, created_at) VALUES (?, ?, ?)', [f.id, f.name, f.created_at]);
  },
  find: (ex: Executor, id: string) => ex.get<SignupFormRow>('SELECT * FROM signup_forms WHERE id = ?', [id]),
  list: (ex: Executor) => ex.all<SignupFormRow>('SELECT * FROM signup_forms ORDER BY created_at, id'),
};

export const signupEntryRepo = {
  async insert(ex: Tx, e: SignupEntryRow) {
    await ex.run(
      `INSERT INTO signup_entries (id, signup_form_id, external_id, group_id, status, business_name, entry_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [e.id, e.signup_form_id, e.external_id, e.group_id, e.status, e.business_name, e.entry_json, e.created_at],
    );
  },
  find: (ex: Executor, id: string) => ex.get<SignupEntryRow>('SELECT * FROM signup_entries WHERE id = ?', [id]),
  listByForm: (ex: Executor, formId: string) =>
    ex.all<SignupEntryRow>('SELECT * FROM signup_entries WHERE signup_form_id = ? ORDER BY created_at DESC, id DESC', [formId]),
};
