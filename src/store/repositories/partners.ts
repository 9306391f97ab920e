import type { Executor, Tx } from '../db.js';
import { likePattern } from './products.js';

export interface PartnerRow {
  id: string;
  group_id: string;
  company: string;
  first_name: string;
  last_name: string;
  email: string;
  line_1: string;
  line_2: string;
  city: string;
  country: string;
  subdivision: string;
  postal_code: string;
  created_at: string;
  updated_at: string;
}

// A partner's "name" for the filter: the company, the first or last name, or "first last".
const NAME_MATCH = `(LOWER(company) LIKE ? ESCAPE '\\' OR LOWER(first_name) LIKE ? ESCAPE '\\'
  OR LOWER(last_name) LIKE ? ESCAPE '\\' OR LOWER(first_name || ' ' || last_name) LIKE ? ESCAPE '\\')`;

export const partnerRepo = {
  async insert(ex: Tx, r: PartnerRow) {
    await ex.run(
      `INSERT INTO partners (id, group_id, company, first_name, last_name, email, line_1, line_2, city, country, subdivision,
         postal_code, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.group_id, r.company, r.first_name, r.last_name, r.email, r.line_1, r.line_2, r.city, r.country, r.subdivision,
        r.postal_code, r.created_at, r.updated_at],
    );
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<PartnerRow>('SELECT * FROM partners WHERE group_id = ? AND id = ?', [groupId, id]),
  async findMany(ex: Executor, ids: readonly string[]): Promise<PartnerRow[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return ex.all<PartnerRow>(`SELECT * FROM partners WHERE id IN (${unique.map(() => '?').join(', ')})`, unique);
  },
  /** Oldest first (stable pages); total_count counts every match, not just the page. */
  async list(ex: Executor, groupId: string, opts: { limit: number; offset: number; name?: string | undefined }) {
    const where = opts.name === undefined ? 'group_id = ?' : `group_id = ? AND ${NAME_MATCH}`;
    const pattern = opts.name === undefined ? undefined : likePattern(opts.name);
    const params = pattern === undefined ? [groupId] : [groupId, pattern, pattern, pattern, pattern];
    const [items, count] = await Promise.all([
      ex.all<PartnerRow>(`SELECT * FROM partners WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, opts.limit, opts.offset]),
      ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM partners WHERE ${where}`, params),
    ]);
    return { items, total_count: count?.n ?? 0 };
  },
};
