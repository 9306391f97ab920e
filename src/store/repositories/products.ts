import type { UnitOfMeasure } from '../../domain/catalog.js';
import type { Executor, Tx } from '../db.js';

export interface ProductRow {
  id: string;
  group_id: string;
  name: string;
  description: string;
  unit_of_measure: UnitOfMeasure;
  amount: number;
  included_tax_amount: number;
  created_at: string;
  updated_at: string;
}

/** `%…%` for LIKE with the wildcards of the user's text escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const productRepo = {
  async insert(ex: Tx, r: ProductRow) {
    await ex.run(
      `INSERT INTO products (id, group_id, name, description, unit_of_measure, amount, included_tax_amount, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.group_id, r.name, r.description, r.unit_of_measure, r.amount, r.included_tax_amount, r.created_at, r.updated_at],
    );
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<ProductRow>('SELECT * FROM products WHERE group_id = ? AND id = ?', [groupId, id]),
  /** The products of the group among `ids` (unknown or foreign ids are simply absent). */
  async findMany(ex: Executor, groupId: string, ids: readonly string[]): Promise<ProductRow[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const marks = unique.map(() => '?').join(', ');
    return ex.all<ProductRow>(`SELECT * FROM products WHERE group_id = ? AND id IN (${marks})`, [groupId, ...unique]);
  },
  update: (ex: Tx, r: Pick<ProductRow, 'id' | 'group_id' | 'name' | 'description' | 'unit_of_measure' | 'amount' | 'included_tax_amount' | 'updated_at'>) =>
    ex.run(
      `UPDATE products SET name = ?, description = ?, unit_of_measure = ?, amount = ?, included_tax_amount = ?, updated_at = ?
       WHERE group_id = ? AND id = ?`,
      [r.name, r.description, r.unit_of_measure, r.amount, r.included_tax_amount, r.updated_at, r.group_id, r.id],
    ),
  /** Oldest first; `name` is a case-insensitive substring. */
  async list(ex: Executor, groupId: string, opts: { limit: number; offset: number; name?: string | undefined }) {
    const where = opts.name === undefined ? 'group_id = ?' : "group_id = ? AND LOWER(name) LIKE ? ESCAPE '\\'";
    const params = opts.name === undefined ? [groupId] : [groupId, likePattern(opts.name)];
    const [items, count] = await Promise.all([
      ex.all<ProductRow>(`SELECT * FROM products WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, opts.limit, opts.offset]),
      ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM products WHERE ${where}`, params),
    ]);
    return { items, total_count: count?.n ?? 0 };
  },
};
