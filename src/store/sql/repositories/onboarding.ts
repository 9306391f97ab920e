// Signup forms and entries (SignupFormStore, SignupEntryStore). An entry is
// kept as JSON text (entry_json); the services see the object.
import type { Executor, Tx } from '../../interfaces/db.js';
import type { SignupEntry, SignupEntryEntity } from '../../../domain/onboarding.js';
import type { SignupForm } from '../../../domain/onboarding/response.js';
import type { SignupEntryStore, SignupFormStore } from '../../interfaces/onboarding.js';

type SignupEntryRow = Omit<SignupEntryEntity, 'entry'> & { entry_json: string };

function toRecord({ entry_json, ...row }: SignupEntryRow): SignupEntryEntity {
  return { ...row, entry: JSON.parse(entry_json) as SignupEntry };
}

export const signupFormRepo: SignupFormStore = {
  async insert(ex: Tx, f: SignupForm) {
    await ex.run('INSERT INTO signup_forms (id, name, created_at) VALUES (?, ?, ?)', [f.id, f.name, f.created_at]);
  },
  find: (ex: Executor, id: string) => ex.get<SignupForm>('SELECT id, name, created_at FROM signup_forms WHERE id = ?', [id]),
  list: (ex: Executor) => ex.all<SignupForm>('SELECT id, name, created_at FROM signup_forms ORDER BY created_at, id'),
};

export const signupEntryRepo: SignupEntryStore = {
  async insert(ex: Tx, e: SignupEntryEntity) {
    await ex.run(
      `INSERT INTO signup_entries (id, signup_form_id, external_id, group_id, status, business_name, entry_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [e.id, e.signup_form_id, e.external_id, e.group_id, e.status, e.business_name, JSON.stringify(e.entry), e.created_at],
    );
  },
  async find(ex: Executor, id: string) {
    const row = await ex.get<SignupEntryRow>('SELECT * FROM signup_entries WHERE id = ?', [id]);
    return row && toRecord(row);
  },
};
