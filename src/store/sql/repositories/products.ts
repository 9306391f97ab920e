// Products (ProductStore). A product's columns are its entity's fields: they
// are selected by name, in the API's order, so a row is the entity as it is.
import type { ProductEntity } from '../../../domain/catalog-entities.js';
import type { Executor, Tx } from '../../interfaces/db.js';
import type { NameFilter, ProductStore } from '../../interfaces/catalog.js';

const FIELDS = 'id, group_id, name, description, unit_of_measure, included_tax_amount, amount, created_at, updated_at';

/** `%…%` for LIKE with the wildcards of the user's text escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `?, ?, …` for an IN list of the distinct `ids`. */
export function inList(ids: readonly string[]): { marks: string; ids: string[] } {
  const unique = [...new Set(ids)];
  return { marks: unique.map(() => '?').join(', '), ids: unique };
}

export const productRepo: ProductStore = {
  async insert(ex: Tx, r: ProductEntity) {
    await ex.run(`INSERT INTO products (${FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      r.id, r.group_id, r.name, r.description, r.unit_of_measure, r.included_tax_amount, r.amount, r.created_at, r.updated_at,
    ]);
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<ProductEntity>(`SELECT ${FIELDS} FROM products WHERE group_id = ? AND id = ?`, [groupId, id]),
  async findMany(ex: Executor, groupId: string, ids: readonly string[]): Promise<ProductEntity[]> {
    const list = inList(ids);
    if (list.ids.length === 0) return [];
    return ex.all<ProductEntity>(`SELECT ${FIELDS} FROM products WHERE group_id = ? AND id IN (${list.marks})`, [groupId, ...list.ids]);
  },
  update: (ex: Tx, r: ProductEntity) =>
    ex.run(
      `UPDATE products SET name = ?, description = ?, unit_of_measure = ?, amount = ?, included_tax_amount = ?, updated_at = ?
       WHERE group_id = ? AND id = ?`,
      [r.name, r.description, r.unit_of_measure, r.amount, r.included_tax_amount, r.updated_at, r.group_id, r.id],
    ),
  /** Oldest first; `name` is a case-insensitive substring. */
  async list(ex: Executor, groupId: string, opts: NameFilter) {
    const where = opts.name === undefined ? 'group_id = ?' : "group_id = ? AND LOWER(name) LIKE ? ESCAPE '\\'";
    const params = opts.name === undefined ? [groupId] : [groupId, likePattern(opts.name)];
    const [items, count] = await Promise.all([
      ex.all<ProductEntity>(`SELECT ${FIELDS} FROM products WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, opts.limit, opts.offset]),
      ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM products WHERE ${where}`, params),
    ]);
    return { items, total_count: count?.n ?? 0 };
  },
};
