// Which API operation a request is, for the fault rules that name an operation: the route
// (its polka pattern) of each, as the route table declares them.
import type { FaultOperation } from '../../domain/faults.js';

/** The route (polka pattern) of each operation; `pay` has a public and a group path. */
export const OPERATION_ROUTES: Record<string, FaultOperation> = {
  'POST /api/v1/groups/:group_id/transaction': 'sale',
  'POST /api/v1/groups/:group_id/transaction/:transaction_id/capture': 'capture',
  'POST /api/v1/groups/:group_id/transaction/:transaction_id/void': 'void',
  'POST /api/v1/groups/:group_id/transaction/:transaction_id/refund': 'refund',
  'POST /api/v1/groups/:group_id/payment-links/:payment_link_id/pay': 'pay',
  'POST /api/v1/payment-links/:payment_link_id/pay': 'pay',
  'POST /api/v1/groups/:group_id/processing/:linked_account_id/customers/:customer_id/payment_methods/card': 'add_card',
};

/** The operation of a request to `routePath` (its pattern), or undefined. */
export function operationOf(method: string, routePath: string, body: unknown): FaultOperation | undefined {
  const op = OPERATION_ROUTES[`${method} ${routePath}`];
  if (op === 'sale' && typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'auth') return 'auth';
  return op;
}

