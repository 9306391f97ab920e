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

type Body = Record<string, unknown>;

/** --amount / --amount-cents of sale, auth, capture and refund. */
export const amountFlags = moneyFlags('amount', 'amount');

/** Address fields as flags (add-card takes the same minus names and e-mail). */
export const addressFlags = {
  company: Flags.string({ description: 'billing company' }),
  line1: Flags.string({ description: 'billing address line 1' }),
  line2: Flags.string({ description: 'billing address line 2' }),
  city: Flags.string({ description: 'billing city' }),
  state: Flags.string({ description: 'billing state/province (subdivision), 2 or 3 characters' }),
  zip: Flags.string({ description: 'billing postal code (exactly 5 characters for US)' }),
  country: Flags.string({ description: 'billing country, 2-letter ISO code (sales: US, CA, UK/GB)' }),
};

export const saleFlags = {
  group: groupFlag,
  processor: Flags.string({ description: "processor id [default: the group's first processor]" }),
  ...amountFlags,
  ...moneyFlags('tax', 'included tax (amounts.included_tax_amount)'),
  ...moneyFlags('shipping', 'included shipping (amounts.included_shipping_amount)'),
  token: Flags.string({ description: 'payment token (tok_visa, tok_ach … or one from `payctl token create`)' }),
  customer: Flags.string({ description: 'stored customer id (pay with --card or --bank-account instead of --token)' }),
  card: Flags.string({ description: 'stored card id of --customer' }),
  'bank-account': Flags.string({ description: 'stored bank account id of --customer' }),
  'first-name': Flags.string({ description: 'billing first name' }),
  'last-name': Flags.string({ description: 'billing last name' }),
  ...addressFlags,
  email: Flags.string({ description: 'e-mail address (email_address and billing e-mail)' }),
  'email-receipt': Flags.boolean({ description: 'e-mail a receipt (queued in the outbox)', default: false }),
  source: Flags.string({ description: 'transaction source', options: [...SOURCES], default: 'virtual_terminal' }),
  description: Flags.string({ description: 'description' }),
  'order-id': Flags.string({ description: 'order id' }),
  'po-number': Flags.string({ description: 'purchase order number' }),
  descriptor: Flags.string({ description: 'dynamic descriptor (card statement text)' }),
  'save-customer': Flags.boolean({ description: 'save the card and billing address to a new customer after success' }),
  'custom-field': Flags.string({ description: 'custom field key=value (repeatable)', multiple: true }),
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
