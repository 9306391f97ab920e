// Flags shared by the transaction commands (sale, auth, capture, refund, card add) and
// how they become the same request bodies the HTTP API takes. The bodies are validated
// by the services with the schemas of src/domain/transactions.ts; nothing here
// re-validates a field, it only turns command-line text into JSON values.
import { Flags } from '@oclif/core';
import { SOURCES } from '../../domain/transactions.js';
import { usage } from '../usage.js';
import { groupFlag } from './group.js';
import { fileFlag } from './file.js';
import { amountFrom, moneyFlags } from './money.js';
import { defined, keyValuePairs } from './body.js';
import { setsField } from './fields.js';

type Body = Record<string, unknown>;

/** --amount / --amount-cents of sale, auth, capture and refund. */
export const amountFlags = moneyFlags('amount', 'amount');

/**
 * Address fields as flags, one spelling for every command that takes an address (sale,
 * auth, card add, partner create): --line1 --line2 --city --state --zip --country, with
 * the API's names (--line-1 --line-2 --subdivision --postal-code) kept as aliases.
 * `at`: the object the fields are in ('billing_address', or '' for top-level fields).
 */
export function addressFlagsAt(at: string, what = 'billing') {
  const field = (name: string) => (at ? `${at}.${name}` : name);
  const w = what ? `${what} ` : '';
  return {
    company: setsField(Flags.string({ description: `${w}company` }), field('company')),
    line1: setsField(Flags.string({ description: `${w}address line 1`, aliases: ['line-1'] }), field('line_1')),
    line2: setsField(Flags.string({ description: `${w}address line 2`, aliases: ['line-2'] }), field('line_2')),
    city: setsField(Flags.string({ description: `${w}city` }), field('city')),
    state: setsField(Flags.string({ description: `${w}state/province (subdivision), 2 or 3 characters`, aliases: ['subdivision'] }), field('subdivision')),
    zip: setsField(Flags.string({ description: `${w}postal code (exactly 5 characters for US)`, aliases: ['postal-code'] }), field('postal_code')),
    country: setsField(Flags.string({ description: `${w}country, 2-letter ISO code (sales: US, CA, UK/GB)` }), field('country')),
  };
}

/** The billing address of sale, auth and card add. */
export const addressFlags = addressFlagsAt('billing_address');

export const saleFlags = {
  group: groupFlag,
  processor: Flags.string({ description: "processor id [default: the group's first processor]" }),
  ...moneyFlags('amount', 'amount', { field: 'amounts.requested_amount' }),
  ...moneyFlags('tax', 'included tax', { field: 'amounts.included_tax_amount' }),
  ...moneyFlags('shipping', 'included shipping', { field: 'amounts.included_shipping_amount' }),
  token: setsField(Flags.string({ description: 'payment token (tok_visa, tok_ach … or one from `payctl token create`)' }), 'payment_details.token'),
  customer: setsField(Flags.string({ description: 'stored customer id (pay with --card or --bank-account instead of --token)' }), 'payment_details.customer.customer_id', 'payment_details.customer'),
  card: setsField(Flags.string({ description: 'stored card id of --customer' }), 'payment_details.customer.card_id'),
  'bank-account': setsField(Flags.string({ description: 'stored bank account id of --customer' }), 'payment_details.customer.bank_account_id'),
  'first-name': setsField(Flags.string({ description: 'billing first name' }), 'billing_address.first_name'),
  'last-name': setsField(Flags.string({ description: 'billing last name' }), 'billing_address.last_name'),
  ...addressFlags,
  email: setsField(Flags.string({ description: 'e-mail address (of the receipt and the billing address)' }), 'email_address', 'billing_address.email'),
  'email-receipt': Flags.boolean({ description: 'e-mail a receipt (queued in the outbox)', default: false }),
  source: Flags.string({ description: 'transaction source', options: [...SOURCES], default: 'virtual_terminal' }),
  description: Flags.string({ description: 'description' }),
  'order-id': Flags.string({ description: 'order id' }),
  'po-number': Flags.string({ description: 'purchase order number' }),
  descriptor: setsField(Flags.string({ description: 'dynamic descriptor (card statement text)' }), 'payment_details.card_details.dynamic_descriptor'),
  'save-customer': Flags.boolean({ description: 'save the card and billing address to a new customer after success' }),
  'custom-field': setsField(Flags.string({ description: 'custom field key=value (repeatable)', multiple: true }), 'custom_fields'),
  file: fileFlag,
};

/** The values of saleFlags (amounts already in cents). */
export interface SaleFlagValues {
  processor?: string;
  amount?: number;
  'amount-cents'?: number;
  tax?: number;
  'tax-cents'?: number;
  shipping?: number;
  'shipping-cents'?: number;
  token?: string;
  customer?: string;
  card?: string;
  'bank-account'?: string;
  'first-name'?: string;
  'last-name'?: string;
  company?: string;
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  email?: string;
  'email-receipt'?: boolean;
  source?: string;
  description?: string;
  'order-id'?: string;
  'po-number'?: string;
  descriptor?: string;
  'save-customer'?: boolean;
  'custom-field'?: string[];
}

function addressFromFlags(f: SaleFlagValues, withPerson: boolean): Body | undefined {
  const a: Body = defined({
    ...(withPerson ? { first_name: f['first-name'], last_name: f['last-name'] } : {}),
    company: f.company,
    line_1: f.line1,
    line_2: f.line2,
    city: f.city,
    subdivision: f.state,
    postal_code: f.zip,
    country: f.country,
  });
  if (Object.keys(a).length === 0) return undefined;
  if (withPerson && f.email !== undefined) a.email = f.email;
  return a;
}

/** A Sale Transaction body (type sale or auth) from flags. */
export function saleBodyFromFlags(type: 'sale' | 'auth', f: SaleFlagValues, processorId: string | undefined): Body {
  const customer = f.customer !== undefined || f.card !== undefined || f['bank-account'] !== undefined
    ? defined({ customer_id: f.customer, card_id: f.card, bank_account_id: f['bank-account'] })
    : undefined;
  const paymentDetails = defined({
    token: f.token,
    customer,
    card_details: f.descriptor !== undefined ? { dynamic_descriptor: f.descriptor } : undefined,
  });
  return defined({
    type,
    source: f.source ?? 'virtual_terminal',
    processor_id: processorId,
    currency: 'USD',
    email_address: f.email,
    email_receipt: f['email-receipt'] ?? false,
    amounts: defined({
      requested_amount: amountFrom(f, 'amount'),
      included_tax_amount: amountFrom(f, 'tax'),
      included_shipping_amount: amountFrom(f, 'shipping'),
    }),
    billing_address: addressFromFlags(f, true),
    payment_details: paymentDetails,
    description: f.description,
    order_id: f['order-id'],
    po_number: f['po-number'],
    save_customer: f['save-customer'] ? true : undefined,
    custom_fields: keyValuePairs('custom-field', f['custom-field']),
  });
}

/**
 * A --file body for `payctl sale` / `payctl auth`: used as given, except that a missing
 * `type` is the command's; a body of the other type is refused (use the other command).
 */
export function withType(body: unknown, type: 'sale' | 'auth'): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const t = (body as Body).type;
  if (t === undefined) return { ...body, type };
  if (t !== type && (t === 'sale' || t === 'auth')) throw usage(`--file has "type": "${t}"; use \`payctl ${t}\` for it`);
  return body;
}

/** Add-card body from flags. */
export function addCardBodyFromFlags(f: SaleFlagValues): Body {
  return defined({ token: f.token, billing_address: addressFromFlags(f, false) ?? {} });
}
