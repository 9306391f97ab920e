// Products of a group (spec 7, 8; create and list are extensions).
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { event, updatedEvent } from '../events/events.js';
import { editField } from '../edit.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import type { Executor } from '../../store/interfaces/db.js';
import {
  createProductSchema,
  productListQuerySchema,
  updateProductSchema,
  type Product,
  type ProductList,
  type UpdateProductInput,
} from '../../domain/catalog.js';
import type { ProductEntity } from '../../domain/catalog-entities.js';
import { notFound, parseOrThrow } from '../../errors.js';
import { newInGroup } from '../groups/groups.js';

export const requireProduct = async (ex: Executor, groupId: string, id: string): Promise<ProductEntity> =>
  (await ex.repos.products.find(ex, groupId, id)) ?? Promise.reject(notFound('product'));

export const createProduct = useCase({
  input: createProductSchema,
  async run(p: Platform, ctx: GroupContext, input): Promise<Product> {
    const product: ProductEntity = await newInGroup(ctx, {
      name: input.name,
      description: input.description,
      unit_of_measure: input.unit_of_measure,
      included_tax_amount: input.included_tax_amount ?? 0,
      amount: input.amount,
    });
    return unitOfWork(ctx, async ({ tx, emit }) => {
      await tx.repos.products.insert(tx, product);
      emit(event('product.created', product));
      return product;
    });
  },
});

export const getProduct = useCase({
  input: z.object({ product_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, input): Promise<Product> => requireProduct(ctx.store, ctx.group, input.product_id),
});

/**
 * Update Product (spec 8): every field is replaced; a missing included_tax_amount means 0.
 * Lines already attached to invoices keep the values they copied. `next` gives the new
 * fields from the current product, read in the update's own transaction.
 */
async function update(ctx: GroupContext, id: string, next: (current: Product) => Promise<UpdateProductInput>): Promise<Product> {
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const current = await requireProduct(tx, ctx.group, id);
    const input = await next(current);
    const product: ProductEntity = {
      ...current,
      name: input.name,
      description: input.description,
      unit_of_measure: input.unit_of_measure,
      included_tax_amount: input.included_tax_amount ?? 0,
      amount: input.amount,
      updated_at: ctx.clock.nowIso(),
    };
    await tx.repos.products.update(tx, product);
    const updated = updatedEvent('product.updated', current, product);
    if (updated) emit(updated);
    return product;
  });
}

export const updateProduct = useCase({
  input: updateProductSchema.safeExtend({ product_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, { product_id, ...fields }) => update(ctx, product_id, async () => fields),
});

/** The CLI's update: `edit` maps the current product to the full update body (checked as the API's). */
export const editProduct = useCase({
  input: z.object({ product_id: z.string(), edit: editField<Product>() }),
  run: (p: Platform, ctx: GroupContext, { product_id, edit }) =>
    update(ctx, product_id, async (current) => parseOrThrow(updateProductSchema, await edit(current))),
});

export const listProducts = useCase({
  input: productListQuerySchema,
  async run(p: Platform, ctx: GroupContext, q): Promise<ProductList> {
    return { data: await ctx.store.repos.products.list(ctx.store, ctx.group, q) };
  },
});
