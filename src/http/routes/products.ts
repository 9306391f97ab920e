import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { createProduct, getProduct, listProducts, updateProduct } from '../../services/catalog/products.js';
import { executeRaw, withParams } from '../../services/use-case.js';
import { productListSchema, productSchema, updateProductSchema } from '../../domain/catalog.js';

export const productRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/products/:product_id',
    summary: 'Get Product',
    tag: 'Products',
    auth: keyAuth('manage_products'),
    response: productSchema,
    handler: (c) => executeRaw(getProduct, c.platform, c.groupCtx, { product_id: c.params.product_id }),
  }),
  route({
    method: 'PUT',
    path: '/api/v1/groups/:group_id/products/:product_id',
    summary: 'Update Product',
    description: 'Replaces every field; a missing included_tax_amount means 0. Lines already on invoices keep the values they copied.',
    tag: 'Products',
    auth: keyAuth('manage_products'),
    body: updateProductSchema,
    response: productSchema,
    handler: (c) => executeRaw(updateProduct, c.platform, c.groupCtx, withParams(c.body, { product_id: c.params.product_id })),
  }),
  {
    method: 'POST',
    path: '/api/v1/groups/:group_id/products',
    summary: 'Create a product',
    tag: 'Products',
    extension: true,
    auth: keyAuth('manage_products'),
    body: createProduct.input,
    response: productSchema,
    handler: (c) => executeRaw(createProduct, c.platform, c.groupCtx, c.body),
  },
  {
    method: 'GET',
    path: '/api/v1/groups/:group_id/products',
    summary: 'List products',
    description: 'Oldest first. `name` filters by a case-insensitive substring; total_count counts every match.',
    tag: 'Products',
    extension: true,
    auth: keyAuth('manage_products'),
    query: listProducts.input,
    response: productListSchema,
    handler: (c) => executeRaw(listProducts, c.platform, c.groupCtx, c.query),
  },
];
