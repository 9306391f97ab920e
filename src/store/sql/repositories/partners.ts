// Partners (PartnerStore). A partner's columns are its entity's fields: they
// are selected by name, in the API's order, so a row is the entity as it is.
import type { Executor, Tx } from '../../interfaces/db.js';
import type { PartnerEntity } from '../../../domain/catalog-entities.js';
import type { NameFilter, PartnerStore } from '../../interfaces/catalog.js';
import { inList, likePattern } from './products.js';

const FIELDS = 'id, group_id, company, first_name, last_name, email, line_1, line_2, city, country, subdivision, postal_code, created_at, updated_at';

// A partner's "name" for the filter: the company, the first or last name, or "first last".
const NAME_MATCH = `(LOWER(company) LIKE ? ESCAPE '\\' OR LOWER(first_name) LIKE ? ESCAPE '\\'
  OR LOWER(last_name) LIKE ? ESCAPE '\\' OR LOWER(first_name || ' ' || last_name) LIKE ? ESCAPE '\\')`;

export const partnerRepo: PartnerStore = {
  async insert(ex: Tx, r: PartnerEntity) {
    await ex.run(`INSERT INTO partners (${FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      r.id, r.group_id, r.company, r.first_name, r.last_name, r.email, r.line_1, r.line_2, r.city, r.country, r.subdivision,
      r.postal_code, r.created_at, r.updated_at,
    ]);
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<PartnerEntity>(`SELECT ${FIELDS} FROM partners WHERE group_id = ? AND id = ?`, [groupId, id]),
  async findMany(ex: Executor, ids: readonly string[]): Promise<PartnerEntity[]> {
    const list = inList(ids);
    if (list.ids.length === 0) return [];
    return ex.all<PartnerEntity>(`SELECT ${FIELDS} FROM partners WHERE id IN (${list.marks})`, list.ids);
  },
  /** Oldest first (stable pages); total_count counts every match, not just the page. */
  async list(ex: Executor, groupId: string, opts: NameFilter) {
    const where = opts.name === undefined ? 'group_id = ?' : `group_id = ? AND ${NAME_MATCH}`;
    const pattern = opts.name === undefined ? undefined : likePattern(opts.name);
    const params = pattern === undefined ? [groupId] : [groupId, pattern, pattern, pattern, pattern];
    const [items, count] = await Promise.all([
      ex.all<PartnerEntity>(`SELECT ${FIELDS} FROM partners WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, opts.limit, opts.offset]),
      ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM partners WHERE ${where}`, params),
    ]);
    return { items, total_count: count?.n ?? 0 };
  },
};
