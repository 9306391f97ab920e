// Products: the request shapes (create, update), the API object and its list.
// Spec: "Product", endpoints 7-8.
import { z } from 'zod';
import { amount as amountCents, storedAmount } from '../money.js';
import { timestamp } from '../strings.js';
import { listOf, productDescription, productName, unitOfMeasure } from './fields.js';
import { partnerListQuerySchema } from './partners.js';

/** Tax included in a price cannot exceed the price. */
function taxWithinAmount(v: { amount?: number; included_tax_amount?: number | undefined }, ctx: z.RefinementCtx) {
  if (v.amount !== undefined && v.included_tax_amount !== undefined && v.included_tax_amount > v.amount) {
    ctx.addIssue({ code: 'custom', path: ['included_tax_amount'], message: 'must not be greater than amount' });
  }
}

// ---------------------------------------------------------------- product requests

const productFields = {
  name: productName,
  description: productDescription,
  amount: amountCents,
  included_tax_amount: amountCents.optional().describe('included in amount, so at most amount; missing means 0'),
  unit_of_measure: unitOfMeasure,
};

/** PUT /products/{id} (spec 8). A missing included_tax_amount means 0. */
export const updateProductSchema = z.strictObject(productFields).superRefine(taxWithinAmount).meta({ id: 'UpdateProductRequest' });
/** POST /products (extension): the same rules as update. */
export const createProductSchema = z.strictObject(productFields).superRefine(taxWithinAmount).meta({ id: 'CreateProductRequest' });

export type UpdateProductInput = z.output<typeof updateProductSchema>;
export type CreateProductInput = z.output<typeof createProductSchema>;

export const productSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  name: z.string(),
  description: z.string(),
  unit_of_measure: unitOfMeasure,
  included_tax_amount: storedAmount,
  amount: storedAmount,
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Product' });
export type Product = z.output<typeof productSchema>;

/** GET /products query (extension): the same paging as partners; name filters case-insensitively. */
export const productListQuerySchema = partnerListQuerySchema;
export type ProductListQuery = z.output<typeof productListQuerySchema>;

export const productListSchema = listOf(productSchema).meta({ id: 'ProductList' });
export type ProductList = z.output<typeof productListSchema>;
