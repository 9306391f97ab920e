// Products of a group (spec 7, 8; create and list are extensions).
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { replacement, type Edit } from '../edit.js';
import type { GroupContext } from '../context.js';
import type { Executor } from '../../store/db.js';
import { productRepo, type ProductRow } from '../../store/repositories/products.js';
import {
  createProductSchema,
  productListQuerySchema,
  updateProductSchema,
  type Product,
  type ProductList,
} from '../../domain/catalog.js';
import { notFound, parseOrThrow } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { requireGroup } from '../groups/groups.js';

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    group_id: row.group_id,
    name: row.name,
    description: row.description,
    unit_of_measure: row.unit_of_measure,
    included_tax_amount: row.included_tax_amount,
    amount: row.amount,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function requireProduct(ex: Executor, groupId: string, id: string): Promise<ProductRow> {
  const row = await productRepo.find(ex, groupId, id);
  if (!row) throw notFound('product');
  return row;
}

export async function createProduct(p: Platform, ctx: GroupContext, body: unknown): Promise<Product> {
  const groupId = ctx.group;
  const input = parseOrThrow(createProductSchema, body);
  await requireGroup(ctx.store, groupId);
  const now = ctx.clock.nowIso();
  const row: ProductRow = {
    id: newId(),
    group_id: groupId,
    name: input.name,
    description: input.description,
    unit_of_measure: input.unit_of_measure,
    amount: input.amount,
    included_tax_amount: input.included_tax_amount ?? 0,
    created_at: now,
    updated_at: now,
  };
  return unitOfWork(ctx, async ({ tx }) => {
    await productRepo.insert(tx, row);
    return toProduct(row);
  });
}

export async function getProduct(p: Platform, ctx: GroupContext, id: string): Promise<Product> {
  const groupId = ctx.group;
  return toProduct(await requireProduct(ctx.store, groupId, id));
}

/**
 * Update Product (spec 8): every field is replaced; a missing included_tax_amount means 0.
 * Lines already attached to invoices keep the values they copied.
 */
export async function updateProduct(p: Platform, ctx: GroupContext, id: string, body: unknown | Edit<Product>): Promise<Product> {
  const groupId = ctx.group;
  const given = replacement(updateProductSchema, body);
  return unitOfWork(ctx, async ({ tx }) => {
    const row = await requireProduct(tx, groupId, id);
    const input = await given(() => toProduct(row));
    const next: ProductRow = {
      ...row,
      name: input.name,
      description: input.description,
      unit_of_measure: input.unit_of_measure,
      amount: input.amount,
      included_tax_amount: input.included_tax_amount ?? 0,
      updated_at: ctx.clock.nowIso(),
    };
    await productRepo.update(tx, next);
    return toProduct(next);
  });
}

export async function listProducts(p: Platform, ctx: GroupContext, query: unknown): Promise<ProductList> {
  const groupId = ctx.group;
  const q = parseOrThrow(productListQuerySchema, query);
  const { items, total_count } = await productRepo.list(ctx.store, groupId, q);
  return { data: { items: items.map(toProduct), total_count } };
}
