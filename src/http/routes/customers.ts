import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { createCustomer, getCustomer } from '../../services/customers/customers.js';
import { customerSchema } from '../../domain/customers.js';
import { execute, executeRaw } from '../../services/use-case.js';

export const customerRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/v1/groups/:group_id/customers',
    summary: 'Create a customer',
    tag: 'Customers',
    extension: true,
    auth: keyAuth('manage_customers'),
    body: createCustomer.input,
    response: customerSchema,
    handler: (c) => executeRaw(createCustomer, c.platform, c.groupCtx, c.body),
  },
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/customers/:customer_id',
    summary: 'Get a customer with stored cards and bank accounts',
    tag: 'Customers',
    extension: true,
    auth: keyAuth('manage_customers'),
    response: customerSchema,
    handler: (c) => execute(getCustomer, c.platform, c.groupCtx, { customer_id: c.params.customer_id }),
  }),
];
