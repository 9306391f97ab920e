import { keyAuth, type RouteDef, route } from '../route.js';
import { addCardSchema, captureRequestFrom, captureRequestSchema, refundSchema, transactionSchema } from '../../domain/transactions.js';
import { customerCardSchema } from '../../domain/customers.js';
import { createSale } from '../../services/transactions/sale.js';
import { captureTransaction, getTransaction, refundTransaction, voidTransaction } from '../../services/transactions/lifecycle.js';
import { addCard } from '../../services/transactions/add-card.js';
import { execute, executeRaw, withParams } from '../../services/use-case.js';

const manage = keyAuth('manage_transactions');

export const transactionRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/v1/groups/:group_id/transaction',
    summary: 'Sale Transaction (type "auth" creates an authorization: an extension)',
    tag: 'Transactions',
    auth: manage,
    body: createSale.input,
    response: transactionSchema,
    handler: (c) => executeRaw(createSale, c.platform, c.groupCtx, c.body),
  },
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/transaction/:transaction_id/capture',
    summary: 'Capture Transaction (variant A: full body with captured_amount; variant B: {"amount"})',
    tag: 'Transactions',
    auth: manage,
    body: captureRequestSchema,
    response: transactionSchema,
    handler: (c) => execute(captureTransaction, c.platform, c.groupCtx, { transaction_id: c.params.transaction_id, capture: captureRequestFrom(c.body) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/transaction/:transaction_id',
    summary: 'Get a transaction',
    tag: 'Transactions',
    extension: true,
    auth: keyAuth('manage_transactions', 'view_transactions'),
    response: transactionSchema,
    handler: (c) => execute(getTransaction, c.platform, c.groupCtx, { transaction_id: c.params.transaction_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/transaction/:transaction_id/void',
    summary: 'Void a pending or authorized transaction',
    tag: 'Transactions',
    extension: true,
    auth: manage,
    response: transactionSchema,
    handler: (c) => execute(voidTransaction, c.platform, c.groupCtx, { transaction_id: c.params.transaction_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/transaction/:transaction_id/refund',
    summary: 'Refund a settled transaction (all, or part with "amount")',
    tag: 'Transactions',
    extension: true,
    auth: manage,
    body: refundSchema,
    response: transactionSchema,
    handler: (c) => executeRaw(refundTransaction, c.platform, c.groupCtx, withParams(c.body ?? {}, { transaction_id: c.params.transaction_id })),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/processing/:linked_account_id/customers/:customer_id/payment_methods/card',
    summary: 'Add Card for an existing Customer',
    tag: 'Customers',
    auth: keyAuth('manage_customers'),
    body: addCardSchema,
    response: customerCardSchema,
    handler: (c) =>
      executeRaw(addCard, c.platform, c.groupCtx, withParams(c.body, { linked_account_id: c.params.linked_account_id, customer_id: c.params.customer_id })),
  }),
];
