// Flags shared by the transaction commands (sale, auth, capture, refund, card add) and
// how they become the same request bodies the HTTP API takes. The bodies are validated
// by the services with the schemas of src/domain/transactions.ts; nothing here
// re-validates a field, it only turns command-line text into JSON values.
import { statusWord } from '../../render/colour.js';
import { Flags } from '@oclif/core';
import { AppError } from '../../errors.js';
import { formatMoney, parseMoney } from '../../domain/money.js';
import { SOURCES, type Transaction } from '../../domain/transactions.js';
import type { CustomerCard } from '../../domain/customers.js';
import type { Platform } from '../../services/platform.js';
import { listLinkedAccounts, listProcessors } from '../../services/groups/groups.js';
import { keyValues } from '../../render/table.js';

type Body = Record<string, unknown>;

const usage = (message: string) => new AppError(400, 'validation_error', message);

export { groupFlag } from './group.js';
import { groupFlag } from './group.js';
export const fileFlag = Flags.string({ description: 'full request body as JSON (a path, or - for stdin); replaces the body flags' });

export const amountFlags = {
  amount: Flags.string({ description: 'amount as money, e.g. 12.34', exclusive: ['amount-cents'] }),
  'amount-cents': Flags.string({ description: 'amount in cents, e.g. 1234', exclusive: ['amount'] }),
};

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
  tax: Flags.string({ description: 'included tax as money (amounts.included_tax_amount)' }),
  shipping: Flags.string({ description: 'included shipping as money (amounts.included_shipping_amount)' }),
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

export interface SaleFlagValues {
  processor?: string;
  amount?: string;
  'amount-cents'?: string;
  tax?: string;
  shipping?: string;
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

/** Money text ("12.34") as cents; a flag-named one-line error otherwise. */
export function moneyFlag(name: string, value: string): number {
  try {
    return parseMoney(value);
  } catch (err) {
    throw usage(`--${name}: ${(err as Error).message}`);
  }
}

/** --amount or --amount-cents as cents; undefined when neither is given. */
export function amountFromFlags(flags: { amount?: string; 'amount-cents'?: string }): number | undefined {
  if (flags.amount !== undefined) return moneyFlag('amount', flags.amount);
  const cents = flags['amount-cents'];
  if (cents === undefined) return undefined;
  if (!/^\d{1,16}$/.test(cents.trim()) || !Number.isSafeInteger(Number(cents))) {
    throw usage(`--amount-cents: "${cents}" is not a whole number of cents (write 1234 for $12.34)`);
  }
  return Number(cents);
}

/** Drop keys whose value is undefined, so the schema reports missing fields by their API names. */
function compact(o: Body): Body {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function addressFromFlags(f: SaleFlagValues, withPerson: boolean): Body | undefined {
  const a = compact({
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

function customFieldsFromFlags(pairs: string[] | undefined): Body | undefined {
  if (!pairs?.length) return undefined;
  const out: Body = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usage(`--custom-field: "${pair}" must be key=value`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The processor of --processor, or the group's first processor. */
export async function processorOrDefault(p: Platform, groupId: string, flag: string | undefined): Promise<string | undefined> {
  if (flag) return flag;
  return (await listProcessors(p, groupId))[0]?.id;
}

/** The linked account of --linked-account, or the group's first one. */
export async function linkedAccountOrDefault(p: Platform, groupId: string, flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const first = (await listLinkedAccounts(p, groupId))[0];
  if (!first) throw usage('this group has no linked account; create one with `payctl linked-account create` or pass --linked-account');
  return first.id;
}

/** A Sale Transaction body (type sale or auth) from flags. */
export function saleBodyFromFlags(type: 'sale' | 'auth', f: SaleFlagValues, processorId: string | undefined): Body {
  const requested = amountFromFlags(f);
  const customer = f.customer !== undefined || f.card !== undefined || f['bank-account'] !== undefined
    ? compact({ customer_id: f.customer, card_id: f.card, bank_account_id: f['bank-account'] })
    : undefined;
  const paymentDetails = compact({
    token: f.token,
    customer,
    card_details: f.descriptor !== undefined ? { dynamic_descriptor: f.descriptor } : undefined,
  });
  return compact({
    type,
    source: f.source ?? 'virtual_terminal',
    processor_id: processorId,
    currency: 'USD',
    email_address: f.email,
    email_receipt: f['email-receipt'] ?? false,
    amounts: compact({
      requested_amount: requested,
      included_tax_amount: f.tax !== undefined ? moneyFlag('tax', f.tax) : undefined,
      included_shipping_amount: f.shipping !== undefined ? moneyFlag('shipping', f.shipping) : undefined,
    }),
    billing_address: addressFromFlags(f, true),
    payment_details: paymentDetails,
    description: f.description,
    order_id: f['order-id'],
    po_number: f['po-number'],
    save_customer: f['save-customer'] ? true : undefined,
    custom_fields: customFieldsFromFlags(f['custom-field']),
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
  return compact({ token: f.token, billing_address: addressFromFlags(f, false) ?? {} });
}

/** How a transaction was paid, for people: "Visa …1111" or "ACH checking …6789". */
export function paidWith(t: Transaction): string {
  const c = t.payment_details.card;
  if (c) return `${c.brand} …${c.last_four}`;
  const b = t.payment_details.bank_account;
  if (b) return `ACH ${b.account_type} …${b.last_four}`;
  return t.payment_method;
}

/** The short human receipt of a transaction. */
export function receipt(t: Transaction): string {
  const a = t.amounts;
  const pairs: Array<[string, string]> = [
    ['id', t.id],
    ['status', statusWord(t.status)],
    ['type', t.transaction_type],
    ['amount', `${formatMoney(a.requested_amount)} (${a.requested_amount} cents)`],
  ];
  if (t.transaction_type === 'auth' && a.authorized_amount > 0) pairs.push(['authorized', formatMoney(a.authorized_amount)]);
  if (a.captured_amount > 0 && (t.transaction_type === 'auth' || a.captured_amount !== a.requested_amount)) {
    pairs.push(['captured', formatMoney(a.captured_amount)]);
  }
  if (a.refunded_amount > 0) pairs.push(['refunded', formatMoney(a.refunded_amount)]);
  pairs.push(['paid with', paidWith(t)]);
  pairs.push(['response', `${t.response_code} ${t.response_text}`]);
  if (t.customer_id) pairs.push(['customer', t.customer_id]);
  if (t.settlement_batch_ids.length) pairs.push(['batch', t.settlement_batch_ids.join(', ')]);
  return keyValues(pairs);
}

/** A stored card, for people. */
export function cardSummary(c: CustomerCard): string {
  return keyValues([
    ['card id', c.card_id],
    ['card', `${c.brand} ${c.first_six}…${c.last_four}`],
    ['expires', c.expiration],
    ['holder', c.holder_name],
    ['issuer', `${c.issuer} (${c.issuer_country})`],
  ]);
}
