// The filters of the reporting API as flags, shared by `payctl report` and `payctl
// transaction list`: each flag sets the query parameter of the same meaning (the API's
// names), repeatable or comma-separated; a flag with a fixed set checks each value.
import { Flags } from '@oclif/core';
import { BRANDS, CURRENCIES, PAYMENT_METHODS, PAYMENT_TYPES, REPORT_STATUSES, TRANSACTION_SOURCES, type RawQuery } from '../../domain/reporting.js';
import { setsField } from './fields.js';

const list = (description: string) => Flags.string({ description: `${description} (repeatable; a,b works too)`, multiple: true });
/** A filter with a fixed set of values: each value (a,b split here) is checked against it, a wrong one is a usage error naming the set. */
const listOf = (description: string, options: readonly string[]) =>
  Flags.string({ description: `${description} (repeatable; a,b works too)`, multiple: true, delimiter: ',', options: [...options] });
const one = (description: string) => Flags.string({ description });

/** Filter flags → the query parameter each sets (the API's names). */
export const FILTERS = {
  status: ['statuses', listOf('status', REPORT_STATUSES)],
  brand: ['brands', listOf('card brand', BRANDS)],
  'payment-type': ['payment_types', listOf('payment type', PAYMENT_TYPES)],
  'payment-method': ['payment_methods', listOf('payment method', PAYMENT_METHODS)],
  'settlement-batch': ['settlement_batches', list('settlement batch id')],
  processor: ['payment_processors', list('processor id')],
  source: ['transaction_sources', listOf('source', TRANSACTION_SOURCES)],
  currency: ['currencies', listOf('currency', CURRENCIES)],
  transaction: ['transaction_id', list('transaction id')],
  form: ['form_ids', list('form id')],
  'form-custom-id': ['form_custom_ids', list('form custom (external) id')],
  'order-id': ['order_id', one('order id')],
  plan: ['plan_ids', list('plan id')],
  subscription: ['subscription_ids', list('subscription id')],
  customer: ['customer_ids', list('customer id')],
  'source-group': ['source_group_id', one('source group id')],
  'destination-group': ['destination_group_id', one('destination group id')],
  'source-or-destination-group': ['source_or_destination_group_id', one('source or destination group id')],
  'invoice-number': ['invoice_numbers', list('invoice number')],
  invoice: ['invoice_ids', list('invoice id')],
  'invoice-external-id': ['invoice_external_ids', list('invoice external id')],
} as const;

export type FilterFlag = keyof typeof FILTERS;
// Each filter flag sets its query parameter: a refused value is reported as the flag (src/cli/flags/fields.ts).
export const filterFlags = Object.fromEntries(Object.entries(FILTERS).map(([name, [param, flag]]) => [name, setsField(flag, param)])) as {
  [K in FilterFlag]: (typeof FILTERS)[K][1];
};


/** The query parameters of the filter flags given. */
export function filterQuery(flags: Record<string, unknown>): RawQuery {
  const raw: RawQuery = {};
  for (const [name, [param]] of Object.entries(FILTERS) as Array<[FilterFlag, (typeof FILTERS)[FilterFlag]]>) {
    const v = flags[name] as string | string[] | undefined;
    if (v !== undefined) raw[param] = v;
  }
  return raw;
}
