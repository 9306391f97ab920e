// Sale, auth, capture (variants A and B), void, refund, settlement and add card over
// real HTTP, with the spec's field rules and status transitions as tables.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { createGroup, createLinkedAccount, createProcessor } from '../../src/services/groups/groups.js';
import { createKey } from '../../src/services/groups/keys.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { fixedToken } from '../../src/services/tokens/tokens.js';
import { storeBankAccount } from '../../src/services/customers/customers.js';
import { transactionSchema } from '../../src/domain/transactions.js';
import { testCards } from '../../src/processor/test-cards.js';
import { US_BILLING } from '../helpers/bodies.js';

let s: TestServer;
let g: string;
let manage: string;
const MIN = 60_000;
const DAY = 86_400_000;

before(async () => {
  s = await startTestServer();
  g = s.demo.group_id;
  manage = s.demo.keys.manage_transactions;
});
after(() => s.close());

const billing = US_BILLING;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function saleBody(over: Body = {}): Body {
  return {
    type: 'sale',
    source: 'api',
    processor_id: s.demo.processor_id,
    currency: 'USD',
    email_address: 'ada@example.com',
    email_receipt: false,
    amounts: { requested_amount: 1234 },
    billing_address: billing,
    payment_details: { token: 'tok_visa' },
    ...over,
  };
}

const txPath = (id?: string, action?: string) => `/api/v1/groups/${g}/transaction${id ? `/${id}` : ''}${action ? `/${action}` : ''}`;
const sale = (body: unknown, key = manage, headers?: Record<string, string>) => s.call('POST', txPath(), { key, body, headers });
const capture = (id: string, body: unknown) => s.call('POST', txPath(id, 'capture'), { key: manage, body });
const voidTx = (id: string) => s.call('POST', txPath(id, 'void'), { key: manage });
const refund = (id: string, body?: unknown) => s.call('POST', txPath(id, 'refund'), { key: manage, body });
const getTx = (id: string) => s.call('GET', txPath(id), { key: manage });

async function ok(r: Promise<Reply> | Reply): Promise<Body> {
  const reply = await r;
  assert.equal(reply.status, 200, reply.text);
  return reply.body as Body;
}

/** A 400 whose `fields` name `path`. */
function assertField(r: Reply, path: string, type = 'validation_error') {
  assert.equal(r.status, 400, `${path}: ${r.text}`);
  assert.equal(r.body.error.type, type, r.text);
  const paths = (r.body.error.fields ?? []).map((f: { path: string }) => f.path);
  assert.ok(paths.includes(path), `expected a problem at ${path}, got ${JSON.stringify(paths)}`);
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return (await s.p.db.get<{ n: number }>(sql, params))!.n;
}
const transactionCount = () => count('SELECT COUNT(*) AS n FROM transactions');

async function mint(number = '4111111111111111'): Promise<string> {
  const r = await s.call('POST', '/api/v1/tokens', { body: { card: { number, expiration_month: 12, expiration_year: 2039, cvv: number.startsWith('3') ? '1234' : '123', holder_name: 'Ada Lovelace' } } });
  assert.equal(r.status, 200, r.text);
  return r.body.token as string;
}

async function authorized(amount = 5000): Promise<Body> {
  const t = await ok(sale(saleBody({ type: 'auth', amounts: { requested_amount: amount } })));
  assert.equal(t.status, 'authorized');
  return t;
}

/** A group with its own processor and a key: for pricing / processor-type rules. */
async function otherGroup(pricing: 'flat' | 'interchange_plus', type: 'transaction_level' | 'merchant_level') {
  const group = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: `G ${pricing} ${type}`, pricing });
  const processor = await execute(createProcessor, s.p, contextFor(s.p, group.id), { type });
  const key = (await execute(createKey, s.p, contextFor(s.p, group.id), { permissions: ['manage_transactions'] })).key;
  const call = (body: Body) => s.call('POST', `/api/v1/groups/${group.id}/transaction`, { key, body: { ...body, processor_id: processor.id } });
  return { group, processor, key, call };
}

// ---------------------------------------------------------------- sale: field rules

test('a sale with tok_visa is pending, Visa …1111, and carries every field of the Transaction object', async () => {
  const t = await ok(sale(saleBody()));
  assert.equal(t.status, 'pending');
  assert.equal(t.transaction_type, 'sale');
  assert.equal(t.payment_method, 'card');
  assert.equal(t.payment_details.card.brand, 'Visa');
  assert.equal(t.payment_details.card.first_six, '411111');
  assert.equal(t.payment_details.card.last_four, '1111');
  assert.match(t.payment_details.card.expiration_date, /^\d{2}\/\d{2}$/);
  assert.equal(t.payment_details.card.customer_name, 'Ada Lovelace');
  assert.equal('dynamic_descriptor' in t.payment_details.card, false);
  assert.deepEqual(
    { requested: t.amounts.requested_amount, authorized: t.amounts.authorized_amount, captured: t.amounts.captured_amount },
    { requested: 1234, authorized: 1234, captured: 1234 },
  );
  assert.equal(t.response_code, '00');
  assert.equal(t.response_text, 'Approved');
  assert.equal(t.group_id, g);
  assert.equal(t.processor_id, s.demo.processor_id);
  assert.equal(t.currency, 'USD');
  assert.equal(t.source, 'api');
  assert.deepEqual(t.billing_address, billing);
  assert.deepEqual(t.settlement_batch_ids, []);
  assert.equal('customer_id' in t, false);
  const parsed = transactionSchema.safeParse(t);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  for (const field of [
    'id', 'group_id', 'settlement_batch_ids', 'gateway', 'processor_id', 'processor_name', 'processor_type', 'transaction_type',
    'payment_method', 'payment_details', 'amounts', 'currency', 'description', 'source', 'order_id', 'po_number', 'email_receipt',
    'email_address', 'user_id', 'username', 'billing_address', 'form_external_id', 'form_entry_id', 'subscription_id', 'plan_id',
    'custom_fields', 'response_code', 'response_text', 'status', 'created_at',
  ]) {
    assert.ok(field in t, `missing ${field}`);
  }
  assert.deepEqual(await ok(getTx(t.id)), t);
});

test('required fields of the sale body: each one missing is a 400 naming it', async () => {
  const cases: Array<[string, (b: Body) => void, string]> = [
    ['type', (b) => delete b.type, 'type'],
    ['source', (b) => delete b.source, 'source'],
    ['processor_id', (b) => delete b.processor_id, 'processor_id'],
    ['currency', (b) => delete b.currency, 'currency'],
    ['email_address', (b) => delete b.email_address, 'email_address'],
    ['email_receipt', (b) => delete b.email_receipt, 'email_receipt'],
    ['amounts', (b) => delete b.amounts, 'amounts'],
    ['amounts.requested_amount', (b) => (b.amounts = {}), 'amounts.requested_amount'],
    ['payment_details', (b) => delete b.payment_details, 'payment_details'],
  ];
  for (const field of ['city', 'country', 'email', 'first_name', 'last_name', 'line_1', 'postal_code', 'subdivision']) {
    cases.push([`billing_address.${field}`, (b) => delete b.billing_address[field], `billing_address.${field}`]);
  }
  for (const [name, mutate, path] of cases) {
    const body = structuredClone(saleBody());
    mutate(body);
    assertField(await sale(body), path);
    assert.ok(name);
  }
  // Refinements that need the rest of the body to be well-formed.
  assertField(await sale(saleBody({ billing_address: undefined })), 'billing_address');
  assertField(await sale(saleBody({ payment_details: {} })), 'payment_details.token');
});

test('optional billing fields company and line_2 are accepted within bounds', async () => {
  const t = await ok(sale(saleBody({ billing_address: { ...billing, company: 'Analytical Engines', line_2: 'Suite 2' } })));
  assert.equal(t.billing_address.company, 'Analytical Engines');
  assert.equal(t.billing_address.line_2, 'Suite 2');
});

test('enums: source, currency and type', async () => {
  for (const source of ['api', 'forms', 'recurring', 'virtual_terminal']) {
    assert.equal((await ok(sale(saleBody({ source })))).source, source);
  }
  const bad: Array<[Body, string]> = [
    [{ source: 'web' }, 'source'],
    [{ source: 'invoice' }, 'source'],
    [{ currency: 'EUR' }, 'currency'],
    [{ currency: 'usd' }, 'currency'],
    [{ type: 'refund' }, 'type'],
    [{ email_receipt: 'true' }, 'email_receipt'],
  ];
  for (const [over, path] of bad) assertField(await sale(saleBody(over)), path);
});

test('billing address bounds (Limits table)', async () => {
  const x = (n: number) => 'x'.repeat(n);
  const table: Array<[string, string, boolean]> = [
    ['first_name', x(64), true], ['first_name', x(65), false], ['first_name', '', false],
    ['last_name', x(64), true], ['last_name', x(65), false],
    ['line_1', x(60), true], ['line_1', x(61), false],
    ['line_2', x(32), true], ['line_2', x(33), false],
    ['city', x(24), true], ['city', x(25), false],
    ['subdivision', 'IL', true], ['subdivision', 'ILL', true], ['subdivision', 'I', false], ['subdivision', 'ILLI', false],
    ['country', 'USA', false], ['country', 'U', false],
    ['email', `${x(88)}@example.com`, true], ['email', `${x(89)}@example.com`, false], ['email', 'not-an-email', false],
  ];
  for (const [field, value, accepted] of table) {
    const r = await sale(saleBody({ billing_address: { ...billing, [field]: value } }));
    if (accepted) assert.equal(r.status, 200, `${field}=${value.length} chars: ${r.text}`);
    else assertField(r, `billing_address.${field}`);
  }
});

test('postal code: exactly 5 for US, 5 to 10 otherwise', async () => {
  const table: Array<[string, string, boolean]> = [
    ['US', '62701', true], ['US', '6270', false], ['US', '627011', false], ['US', '62701-1234', false],
    ['CA', 'K1A 0B1', true], ['CA', '12345', true], ['CA', '1234567890', true], ['CA', '1234', false], ['CA', '12345678901', false],
    ['GB', 'SW1A 1AA', true], ['UK', 'EC1A 1BB', true], ['GB', 'SW1', false],
  ];
  for (const [country, postal_code, accepted] of table) {
    const r = await sale(saleBody({ billing_address: { ...billing, country, subdivision: 'ON', postal_code } }));
    if (accepted) assert.equal(r.status, 200, `${country} ${postal_code}: ${r.text}`);
    else assertField(r, 'billing_address.postal_code');
  }
});

test('sale countries are US, CA, UK (GB accepted as its ISO spelling)', async () => {
  for (const [country, accepted] of [['US', true], ['CA', true], ['UK', true], ['GB', true], ['gb', true], ['DE', false], ['FR', false], ['MX', false]] as const) {
    const r = await sale(saleBody({ billing_address: { ...billing, country } }));
    if (accepted) assert.equal(r.status, 200, `${country}: ${r.text}`);
    else assertField(r, 'billing_address.country');
  }
});

test('unknown fields are refused by name, not ignored (no mass assignment)', async () => {
  const table: Array<[Body, string]> = [
    [{ status: 'settled' }, 'status'],
    [{ group_id: 'someone-else' }, 'group_id'],
    [{ id: 'x' }, 'id'],
    [{ amounts: { requested_amount: 100, captured_amount: 100 } }, 'amounts.captured_amount'],
    [{ amounts: { requested_amount: 100, authorized_amount: 100 } }, 'amounts.authorized_amount'],
    [{ billing_address: { ...billing, phone: '555' } }, 'billing_address.phone'],
    [{ payment_details: { token: 'tok_visa', card_number: '4111111111111111' } }, 'payment_details.card_number'],
  ];
  const before = await transactionCount();
  for (const [over, path] of table) assertField(await sale(saleBody(over)), path);
  assert.equal(await transactionCount(), before);
});

test('amounts are whole cents from 0 to 99,999,999,999: negative, fractional, string and too large are 400', async () => {
  const table: Array<[unknown, boolean]> = [
    [0, true], [1, true], [99_999_999_999, true], [100_000_000_000, false], [9007199254740991, false],
    [-1, false], [1.5, false], ['100', false], [1e21, false], [9007199254740992, false], [null, false], [true, false],
  ];
  for (const [value, accepted] of table) {
    const r = await sale(saleBody({ amounts: { requested_amount: value } }));
    if (accepted) assert.equal((await ok(r)).amounts.requested_amount, value);
    else assertField(r, 'amounts.requested_amount');
  }
  for (const field of ['included_tax_amount', 'included_shipping_amount']) {
    assertField(await sale(saleBody({ amounts: { requested_amount: 1000, [field]: -5 } })), `amounts.${field}`);
  }
  const t = await ok(sale(saleBody({ amounts: { requested_amount: 1000, included_tax_amount: 80, included_shipping_amount: 120 } })));
  assert.equal(t.amounts.included_tax_amount, 80);
  assert.equal(t.amounts.included_shipping_amount, 120);
  assertField(await sale(saleBody({ amounts: { requested_amount: 100, included_tax_amount: 80, included_shipping_amount: 21 } })), 'amounts');
});

test('string bounds of the order fields', async () => {
  const table: Array<[string, number, number]> = [['description', 255, 256], ['order_id', 100, 101], ['po_number', 100, 101], ['ip_address', 45, 46]];
  for (const [field, okLen, badLen] of table) {
    assert.equal((await sale(saleBody({ [field]: '1'.repeat(okLen) }))).status, 200, field);
    assertField(await sale(saleBody({ [field]: '1'.repeat(badLen) })), field);
  }
  const t = await ok(sale(saleBody({ description: 'Espresso', order_id: 'O-1', po_number: 'PO-9' })));
  assert.deepEqual([t.description, t.order_id, t.po_number], ['Espresso', 'O-1', 'PO-9']);
});

test('payment_details: a token or a stored customer method, not both, not neither', async () => {
  const c = s.demo.customer_id;
  assertField(await sale(saleBody({ payment_details: { token: 'tok_visa', customer: { customer_id: c, card_id: s.demo.card_id } } })), 'payment_details.token');
  assertField(await sale(saleBody({ payment_details: { customer: { customer_id: c } } })), 'payment_details.customer');
  assertField(await sale(saleBody({ payment_details: { customer: { customer_id: c, card_id: 'a', bank_account_id: 'b' } } })), 'payment_details.customer');
  assertField(await sale(saleBody({ payment_details: { customer: { card_id: s.demo.card_id } } })), 'payment_details.customer.customer_id');
  assertField(await sale(saleBody({ payment_details: { token: 'tok_nope' } })), 'payment_details.token');
  assertField(await sale(saleBody({ processor_id: 'not-a-processor' })), 'processor_id');
});

// ---------------------------------------------------------------- stored methods, save_customer

test('a sale from a stored customer card: billing and order fields optional, response has customer_id', async () => {
  const body = saleBody({ payment_details: { customer: { customer_id: s.demo.customer_id, card_id: s.demo.card_id } } });
  delete body.billing_address;
  const t = await ok(sale(body));
  assert.equal(t.status, 'pending');
  assert.equal(t.customer_id, s.demo.customer_id);
  assert.equal(t.payment_details.card.last_four, '1111');
  assert.equal(t.billing_address.first_name, 'Ada');
  assert.equal(t.billing_address.postal_code, '62701');
  assertField(await sale(saleBody({ payment_details: { customer: { customer_id: s.demo.customer_id, card_id: 'nope' } } })), 'payment_details.customer.card_id');
  assertField(await sale(saleBody({ payment_details: { customer: { customer_id: 'nope', card_id: s.demo.card_id } } })), 'payment_details.customer.customer_id');
});

test('a sale from a stored customer bank account is ACH with customer_id', async () => {
  const account = await s.p.db.write((tx) =>
    storeBankAccount(tx, { groupId: g, customerId: s.demo.customer_id, token: fixedToken('tok_ach', s.p.clock.now())!, now: s.p.clock.nowIso() }),
  );
  const body = saleBody({ payment_details: { customer: { customer_id: s.demo.customer_id, bank_account_id: account.id } } });
  delete body.billing_address;
  const t = await ok(sale(body));
  assert.equal(t.status, 'pending');
  assert.equal(t.payment_method, 'ach');
  assert.equal(t.customer_id, s.demo.customer_id);
  assert.equal(t.payment_details.bank_account.last_four, '6789');
  assert.equal(t.payment_details.card, undefined);
  assertField(await sale(saleBody({ payment_details: { customer: { customer_id: s.demo.customer_id, bank_account_id: 'nope' } } })), 'payment_details.customer.bank_account_id');
});

test('save_customer saves the card and billing address to a new customer, only after success', async () => {
  const customers = () => count('SELECT COUNT(*) AS n FROM customers');
  const cards = () => count('SELECT COUNT(*) AS n FROM customer_cards');
  const [c0, k0] = [await customers(), await cards()];
  const declined = await ok(sale(saleBody({ save_customer: true, payment_details: { token: 'tok_visa_declined' } })));
  assert.equal(declined.status, 'declined');
  assert.equal('customer_id' in declined, false);
  assert.deepEqual([await customers(), await cards()], [c0, k0]);

  for (const flag of [true, 'true']) {
    const t = await ok(sale(saleBody({ save_customer: flag, payment_details: { token: 'tok_mastercard' } })));
    assert.equal(t.status, 'pending');
    assert.ok(t.customer_id);
    const customer = await ok(s.call('GET', `/api/v1/groups/${g}/customers/${t.customer_id}`, { key: s.demo.keys.manage_customers }));
    assert.equal(customer.first_name, 'Ada');
    assert.equal(customer.email, 'ada@example.com');
    assert.equal(customer.cards.length, 1);
    assert.equal(customer.cards[0].last_four, '4444');
    assert.equal(customer.cards[0].billing_address.postal_code, '62701');
    assert.equal((await ok(getTx(t.id))).customer_id, t.customer_id);
    // The saved card pays again.
    const again = await ok(sale(saleBody({ payment_details: { customer: { customer_id: t.customer_id, card_id: customer.cards[0].card_id } } })));
    assert.equal(again.status, 'pending');
  }
  assert.deepEqual([await customers(), await cards()], [c0 + 2, k0 + 2]);
  assert.equal((await ok(sale(saleBody({ save_customer: false })))).customer_id, undefined);
  assertField(await sale(saleBody({ save_customer: 'yes' })), 'save_customer');
});

// ---------------------------------------------------------------- descriptor, commissions, custom fields

test('dynamic_descriptor is echoed in payment_details.card only when supplied', async () => {
  const withIt = await ok(sale(saleBody({ payment_details: { token: 'tok_visa', card_details: { dynamic_descriptor: 'PAYCTL*COFFEE' } } })));
  assert.equal(withIt.payment_details.card.dynamic_descriptor, 'PAYCTL*COFFEE');
  const without = await ok(sale(saleBody()));
  assert.equal('dynamic_descriptor' in without.payment_details.card, false);
  assertField(await sale(saleBody({ payment_details: { token: 'tok_visa', card_details: { dynamic_descriptor: 'x'.repeat(26) } } })), 'payment_details.card_details.dynamic_descriptor');
});

test('commissions are allowed only with a transaction-level processor', async () => {
  const commissions = [{ group_id: 'partner-1', flat: 150 }, { group_id: 'partner-2', percentage: 2500 }];
  const t = await ok(sale(saleBody({ commissions })));
  assert.deepEqual(t.commissions, commissions);
  assert.equal(t.processor_type, 'transaction_level');

  const merchant = await otherGroup('flat', 'merchant_level');
  const r = await merchant.call(saleBody({ commissions }));
  assertField(r, 'commissions', 'invalid_request');
  assert.equal((await merchant.call(saleBody())).status, 200, 'a sale without commissions works there');

  assertField(await sale(saleBody({ commissions: [{ group_id: 'p', percentage: 100_001 }] })), 'commissions.0.percentage');
  assertField(await sale(saleBody({ commissions: [{ group_id: 'p', flat: -1 }] })), 'commissions.0.flat');
  assertField(await sale(saleBody({ commissions: [{ flat: 1 }] })), 'commissions.0.group_id');
  assertField(await sale(saleBody({ commissions: [{ group_id: 'p', other: 1 }] })), 'commissions.0.other');
});

test('custom_fields are stored and returned; bounded', async () => {
  const custom_fields = { table: '12', guests: 3, vip: true };
  const t = await ok(sale(saleBody({ custom_fields })));
  assert.deepEqual(t.custom_fields, custom_fields);
  assert.deepEqual((await ok(sale(saleBody()))).custom_fields, {});
  const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
  assertField(await sale(saleBody({ custom_fields: many })), 'custom_fields');
  assertField(await sale(saleBody({ custom_fields: { nested: { a: 1 } } })), 'custom_fields.nested');
});

// ---------------------------------------------------------------- auth and capture

test('auth is available only under Flat pricing: Interchange+ is a 400', async () => {
  const ic = await otherGroup('interchange_plus', 'transaction_level');
  const r = await ic.call(saleBody({ type: 'auth' }));
  assertField(r, 'type', 'invalid_request');
  assert.equal((await ic.call(saleBody())).status, 200, 'sales work under Interchange+');
  const t = await authorized(700);
  assert.deepEqual([t.amounts.authorized_amount, t.amounts.captured_amount], [700, 0]);
});

function captureABody(authorizedAmount: number, captured: number | undefined, over: Body = {}): Body {
  const body = saleBody({ type: 'auth', amounts: { requested_amount: authorizedAmount, authorized_amount: authorizedAmount, ...(captured === undefined ? {} : { captured_amount: captured }) }, ...over });
  return body;
}

test('capture variant A: equal amount → captured, smaller → partially_captured, above authorized → 400', async () => {
  const table: Array<[number, number | undefined, number, string]> = [
    [5000, 5000, 200, 'captured'],
    [5000, 2000, 200, 'partially_captured'],
    [5000, undefined, 200, 'captured'],
    [5000, 1, 200, 'partially_captured'],
    [5000, 5001, 400, 'amounts.captured_amount'],
    [5000, 0, 400, 'amounts.captured_amount'],
  ];
  for (const [amount, captured, status, expected] of table) {
    const auth = await authorized(amount);
    const r = await capture(auth.id, captureABody(amount, captured));
    assert.equal(r.status, status, r.text);
    if (status === 200) {
      assert.equal(r.body.status, expected);
      assert.equal(r.body.amounts.captured_amount, captured ?? amount);
      assert.equal(r.body.amounts.authorized_amount, amount);
    } else {
      assertField(r, expected);
      assert.equal((await ok(getTx(auth.id))).status, 'authorized', 'a refused capture changes nothing');
    }
  }
});

test('capture variant A field rules: type auth, loose postal code, no dynamic_descriptor, same processor', async () => {
  const auth = await authorized(3000);
  const cases: Array<[Body, string]> = [
    [{ type: 'sale' }, 'type'],
    [{ billing_address: { ...billing, postal_code: '-1234' } }, 'billing_address.postal_code'],
    [{ billing_address: { ...billing, postal_code: '12345678901' } }, 'billing_address.postal_code'],
    [{ billing_address: { ...billing, postal_code: '12  34' } }, 'billing_address.postal_code'],
    [{ payment_details: { token: 'tok_visa', card_details: { dynamic_descriptor: 'X' } } }, 'payment_details.card_details'],
    [{ payment_details: {} }, 'payment_details.token'],
    [{ currency: 'EUR' }, 'currency'],
    [{ processor_id: 'another' }, 'processor_id'],
  ];
  for (const [over, path] of cases) assertField(await capture(auth.id, captureABody(3000, 1000, over)), path);
  // 1 to 10 characters with a single space or hyphen inside: shorter than a sale's postal code.
  const t = await ok(capture(auth.id, captureABody(3000, 1000, { billing_address: { ...billing, postal_code: 'A1-2' } })));
  assert.equal(t.status, 'partially_captured');
});

test('capture variant B: amount equal to the authorized amount → captured; different → 400', async () => {
  const auth = await authorized(4200);
  for (const amount of [4199, 4201, 0]) assertField(await capture(auth.id, { amount }), 'amount');
  assertField(await capture(auth.id, { amount: '4200' }), 'amount');
  assertField(await capture(auth.id, { amount: 4200, extra: 1 }), 'extra');
  const t = await ok(capture(auth.id, { amount: 4200 }));
  assert.equal(t.status, 'captured');
  assert.equal(t.amounts.captured_amount, 4200);
});

test('capture of anything but an authorized transaction is a 400; unknown is 404', async () => {
  const pending = await ok(sale(saleBody()));
  const declined = await ok(sale(saleBody({ payment_details: { token: 'tok_visa_declined' } })));
  const captured = await authorized(100);
  await ok(capture(captured.id, { amount: 100 }));
  const voided = await authorized(100);
  await ok(voidTx(voided.id));
  for (const [t, amount] of [[pending, 1234], [declined, 0], [captured, 100], [voided, 100]] as const) {
    const r = await capture(t.id, { amount });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.type, 'invalid_request');
  }
  assert.equal((await capture('01900000-0000-7000-8000-000000000000', { amount: 1 })).status, 404);
});

test('50 concurrent captures of one auth: exactly one succeeds and captured ≤ authorized', async () => {
  const auth = await authorized(10_000);
  const bodies = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? { amount: 10_000 } : captureABody(10_000, 1000 + i)));
  const replies = await Promise.all(bodies.map((b) => capture(auth.id, b)));
  const okReplies = replies.filter((r) => r.status === 200);
  assert.equal(okReplies.length, 1, replies.map((r) => r.status).join(','));
  assert.ok(replies.every((r) => r.status === 200 || (r.status === 400 && r.body.error.type === 'invalid_request')));
  const t = await ok(getTx(auth.id));
  assert.equal(t.amounts.captured_amount, okReplies[0]!.body.amounts.captured_amount);
  assert.ok(t.amounts.captured_amount <= t.amounts.authorized_amount);
});

// ---------------------------------------------------------------- void, refund, settlement

test('void: pending and authorized → voided; anything else is a 400', async () => {
  const pending = await ok(sale(saleBody()));
  const auth = await authorized(900);
  for (const t of [pending, auth]) {
    const v = await ok(voidTx(t.id));
    assert.equal(v.status, 'voided');
    const again = await voidTx(t.id);
    assert.equal(again.status, 400);
    assert.equal(again.body.error.type, 'invalid_request');
  }
  const declined = await ok(sale(saleBody({ payment_details: { token: 'tok_insufficient_funds' } })));
  assert.equal((await voidTx(declined.id)).status, 400);
  const captured = await authorized(900);
  await ok(capture(captured.id, { amount: 900 }));
  assert.equal((await voidTx(captured.id)).status, 400);
  assert.equal((await voidTx('01900000-0000-7000-8000-000000000000')).status, 404);
  assert.equal((await s.call('POST', txPath(pending.id, 'void'), { key: s.demo.keys.view_transactions })).status, 403);
});

test('settlement and refunds: settle after a day, refund part then the rest, never more than captured', async () => {
  const pending = await ok(sale(saleBody({ amounts: { requested_amount: 1234 } })));
  const full = await authorized(3000);
  await ok(capture(full.id, { amount: 3000 }));
  const partial = await authorized(5000);
  await ok(capture(partial.id, captureABody(5000, 2000)));
  const auth = await authorized(800);
  const declined = await ok(sale(saleBody({ payment_details: { token: 'tok_visa_declined' } })));

  // Not settled yet: refund is refused (void it instead).
  const early = await refund(pending.id, {});
  assert.equal(early.status, 400);
  assert.equal(early.body.error.type, 'invalid_request');

  const state = await advanceClock(s.p, DAY);
  assert.ok((state.work.settlement ?? 0) >= 3);
  const batches = new Set<string>();
  for (const t of [pending, full, partial]) {
    const now = await ok(getTx(t.id));
    assert.equal(now.status, 'settled', t.id);
    assert.equal(now.settlement_batch_ids.length, 1);
    batches.add(now.settlement_batch_ids[0]);
  }
  assert.equal(batches.size, 1, 'one batch per group and cutoff');
  assert.equal((await ok(getTx(auth.id))).status, 'authorized');
  assert.equal((await ok(getTx(declined.id))).status, 'declined');

  // Refund rules.
  assertField(await refund(pending.id, { amount: 0 }), 'amount');
  assertField(await refund(pending.id, { amount: 1.5 }), 'amount');
  const part = await ok(refund(pending.id, { amount: 500 }));
  assert.equal(part.status, 'partially_refunded');
  assert.equal(part.amounts.refunded_amount, 500);
  const tooMuch = await refund(pending.id, { amount: 735 });
  assert.equal(tooMuch.status, 400);
  assert.equal(tooMuch.body.error.type, 'invalid_request');
  const rest = await ok(refund(pending.id));
  assert.equal(rest.status, 'refunded');
  assert.equal(rest.amounts.refunded_amount, 1234);
  assert.equal((await refund(pending.id, { amount: 1 })).status, 400);

  // A partial capture refunds at most what was captured.
  assert.equal((await refund(partial.id, { amount: 2001 })).status, 400);
  const whole = await ok(refund(partial.id, {}));
  assert.equal(whole.status, 'refunded');
  assert.equal(whole.amounts.refunded_amount, 2000);

  const fullRefund = await ok(refund(full.id, { amount: 3000 }));
  assert.equal(fullRefund.status, 'refunded');
  assert.equal((await refund(declined.id)).status, 400);
  assert.equal((await refund(auth.id)).status, 400);
  // Settled is final for void.
  assert.equal((await voidTx(fullRefund.id)).status, 400);
});

test('an auth never captured expires after 7 days; before that it still captures', async () => {
  const stale = await authorized(600);
  const fresh = await authorized(700);
  await advanceClock(s.p, 6 * DAY);
  assert.equal((await ok(getTx(stale.id))).status, 'authorized');
  await ok(capture(fresh.id, { amount: 700 }));
  await advanceClock(s.p, 2 * DAY);
  const expired = await ok(getTx(stale.id));
  assert.equal(expired.status, 'expired');
  assert.equal(expired.amounts.captured_amount, 0);
  assert.equal((await capture(stale.id, { amount: 600 })).status, 400);
  assert.equal((await ok(getTx(fresh.id))).status, 'settled');
});

// ---------------------------------------------------------------- processor outcomes, tokens

test('test cards: each outcome of data/test-cards.json, by fixed token and by minted number', async () => {
  const { cards, outcomes } = testCards();
  assert.ok(cards.length >= 6);
  for (const card of cards) {
    const o = outcomes[card.outcome]!;
    for (const token of [card.token, await mint(card.number)]) {
      const t = await ok(sale(saleBody({ payment_details: { token } })));
      const label = `${card.token} (${token})`;
      assert.equal(t.status, o.approved ? 'pending' : 'declined', label);
      assert.equal(t.response_code, o.response_code, label);
      assert.equal(t.response_text, o.response_text, label);
      assert.equal(t.payment_details.card.avs, o.avs, label);
      assert.equal(t.payment_details.card.cvv, o.cvv, label);
      assert.equal(t.payment_details.card.brand, card.brand, label);
      assert.equal(t.payment_details.card.last_four, card.number.slice(-4), label);
      if (!o.approved) assert.equal(t.amounts.authorized_amount, 0);
    }
  }
  // An auth with a declining card is declined too, never authorized.
  const auth = await ok(sale(saleBody({ type: 'auth', payment_details: { token: 'tok_cvv_mismatch' } })));
  assert.deepEqual([auth.status, auth.response_code], ['declined', outcomes.cvv_mismatch!.response_code]);
});

test('ACH from bank-account tokens', async () => {
  const { bank_accounts, outcomes } = testCards();
  for (const account of bank_accounts) {
    const o = outcomes[account.outcome]!;
    const t = await ok(sale(saleBody({ payment_details: { token: account.token } })));
    assert.equal(t.payment_method, 'ach');
    assert.equal(t.status, o.approved ? 'pending' : 'declined');
    assert.equal(t.response_code, o.response_code);
    assert.equal(t.payment_details.bank_account.last_four, account.account_number.slice(-4));
    assert.equal(t.payment_details.bank_account.routing_number, account.routing_number);
    assert.equal(t.payment_details.card, undefined);
  }
  const minted = await s.call('POST', '/api/v1/tokens', { body: { bank_account: { routing_number: '110000000', account_number: '000123456789', account_type: 'savings' } } });
  const t = await ok(sale(saleBody({ payment_details: { token: minted.body.token } })));
  assert.deepEqual([t.status, t.payment_method, t.payment_details.bank_account.account_type], ['pending', 'ach', 'savings']);
});

test('a minted token is single-use: the second use is a 400 and charges nothing', async () => {
  const token = await mint();
  const first = await ok(sale(saleBody({ payment_details: { token } })));
  assert.equal(first.status, 'pending');
  const before = await transactionCount();
  const second = await sale(saleBody({ payment_details: { token } }));
  assertField(second, 'payment_details.token', 'invalid_request');
  assert.match(second.body.error.message, /already used/);
  assert.equal(await transactionCount(), before);
  // Fixed test tokens are reusable.
  await ok(sale(saleBody()));
  await ok(sale(saleBody()));
});

test('a minted token expires after 15 minutes of platform time', async () => {
  const token = await mint();
  const stillGood = await mint();
  await advanceClock(s.p, 14 * MIN);
  await ok(sale(saleBody({ payment_details: { token: stillGood } })));
  await advanceClock(s.p, 2 * MIN);
  const before = await transactionCount();
  const r = await sale(saleBody({ payment_details: { token } }));
  assertField(r, 'payment_details.token', 'invalid_request');
  assert.match(r.body.error.message, /expired/);
  assert.equal(await transactionCount(), before);
});

test('email_receipt queues a receipt in the outbox, without the card number', async () => {
  const number = '5555555555554444';
  const token = await mint(number);
  const t = await ok(sale(saleBody({ email_receipt: true, email_address: 'receipt@example.com', description: 'Beans', payment_details: { token } })));
  const rows = await s.p.db.all<{ kind: string; to_address: string; subject: string; body: string }>('SELECT * FROM outbox WHERE related_id = ?', [t.id]);
  assert.equal(rows.length, 1);
  const mail = rows[0]!;
  assert.equal(mail.kind, 'receipt');
  assert.equal(mail.to_address, 'receipt@example.com');
  assert.match(mail.body, /\$12\.34/);
  assert.match(mail.body, /Paid with: Mastercard …4444/);
  assert.ok(!`${mail.subject}\n${mail.body}`.includes(number), 'no card number in the e-mail');
  assert.ok(!mail.body.includes('555555'), 'not even the first six');
  // No receipt for a decline, none when not asked.
  const declined = await ok(sale(saleBody({ email_receipt: true, payment_details: { token: 'tok_visa_declined' } })));
  const quiet = await ok(sale(saleBody()));
  assert.equal(await count('SELECT COUNT(*) AS n FROM outbox WHERE related_id IN (?, ?)', [declined.id, quiet.id]), 0);
});

test('Idempotency-Key: a retried sale returns the same transaction and charges once', async () => {
  const key = `sale-${Date.now()}`;
  const body = saleBody({ description: `idempotent ${key}` });
  const first = await sale(body, manage, { 'idempotency-key': key });
  assert.equal(first.status, 200);
  const again = await sale(body, manage, { 'idempotency-key': key });
  assert.equal(again.status, 200);
  assert.equal(again.body.id, first.body.id);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(await count('SELECT COUNT(*) AS n FROM transactions WHERE description = ?', [body.description]), 1);
  const other = await sale(saleBody({ description: 'different' }), manage, { 'idempotency-key': key });
  assert.equal(other.status, 422);
  // Capture is guarded too.
  const auth = await authorized(1500);
  const c1 = await s.call('POST', txPath(auth.id, 'capture'), { key: manage, body: { amount: 1500 }, headers: { 'idempotency-key': `cap-${key}` } });
  const c2 = await s.call('POST', txPath(auth.id, 'capture'), { key: manage, body: { amount: 1500 }, headers: { 'idempotency-key': `cap-${key}` } });
  assert.deepEqual([c1.status, c2.status], [200, 200]);
  assert.deepEqual(c2.body, c1.body);
});

test('permissions: sale and capture need Manage Transactions; get also takes View Transactions', async () => {
  assert.equal((await sale(saleBody(), s.demo.keys.view_transactions)).status, 403);
  assert.equal((await sale(saleBody(), s.demo.keys.manage_customers)).status, 403);
  assert.equal((await s.call('POST', txPath(), { body: saleBody() })).status, 401);
  const t = await ok(sale(saleBody()));
  assert.equal((await s.call('GET', txPath(t.id), { key: s.demo.keys.view_transactions })).status, 200);
  assert.equal((await s.call('GET', txPath(t.id), { key: s.demo.keys.manage_products })).status, 403);
  const other = await otherGroup('flat', 'transaction_level');
  assert.equal((await s.call('GET', `/api/v1/groups/${other.group.id}/transaction/${t.id}`, { key: other.key })).status, 404);
  assert.equal((await getTx('01900000-0000-7000-8000-000000000000')).status, 404);
});

// ---------------------------------------------------------------- add card

const cardPath = (linked = s.demo.linked_account_id, customer = s.demo.customer_id) =>
  `/api/v1/groups/${g}/processing/${linked}/customers/${customer}/payment_methods/card`;
const cardBilling = { line_1: '1 Main St', line_2: 'Apt 4', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' };
const addCard = (body: unknown, path = cardPath(), key = s.demo.keys.manage_customers) => s.call('POST', path, { key, body });

test('add card returns the Customer card object with every field of the spec', async () => {
  const r = await ok(addCard({ token: await mint('378282246310005'), billing_address: { ...cardBilling, company: 'Engines Ltd' } }));
  assert.deepEqual(Object.keys(r).sort(), [
    'billing_address', 'brand', 'card_category', 'card_id', 'card_on_file', 'card_type', 'commercial', 'created_at', 'expiration',
    'first_six', 'holder_name', 'issuer', 'issuer_country', 'last_four', 'regulated', 'updated_at',
  ]);
  assert.equal(r.expiration, '12/39', 'MM/YY');
  assert.equal(r.brand, 'American Express');
  assert.equal(r.first_six, '378282');
  assert.equal(r.last_four, '0005');
  assert.equal(r.holder_name, 'Ada Lovelace');
  assert.deepEqual(r.billing_address, cardBilling);
  assert.equal(typeof r.issuer, 'string');
  assert.equal(r.issuer_country, 'US');
  assert.deepEqual([r.regulated, r.commercial, r.card_on_file], [false, false, true]);
  assert.equal(typeof r.card_type, 'string');
  assert.equal(typeof r.card_category, 'string');
  assert.match(r.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const customer = await ok(s.call('GET', `/api/v1/groups/${g}/customers/${s.demo.customer_id}`, { key: s.demo.keys.manage_customers }));
  assert.ok(customer.cards.some((c: { card_id: string }) => c.card_id === r.card_id));
  // The card pays.
  const t = await ok(sale(saleBody({ payment_details: { customer: { customer_id: s.demo.customer_id, card_id: r.card_id } } })));
  assert.equal(t.payment_details.card.brand, 'American Express');
  // A fixed test token works too; expiration keeps the MM/YY shape.
  assert.match((await ok(addCard({ token: 'tok_discover', billing_address: cardBilling }))).expiration, /^12\/\d{2}$/);
});

test('add card: field rules, 404 for an unknown customer or linked account, bank tokens refused', async () => {
  const cases: Array<[Body, string]> = [
    [{ billing_address: cardBilling }, 'token'],
    [{ token: 'tok_visa' }, 'billing_address'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, postal_code: '627011' } }, 'billing_address.postal_code'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, country: 'CA', postal_code: '1234' } }, 'billing_address.postal_code'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, city: 'x'.repeat(25) } }, 'billing_address.city'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, line_1: 'x'.repeat(61) } }, 'billing_address.line_1'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, line_2: 'x'.repeat(33) } }, 'billing_address.line_2'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, subdivision: 'X' } }, 'billing_address.subdivision'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, country: 'USA' } }, 'billing_address.country'],
    [{ token: 'tok_visa', billing_address: { ...cardBilling, first_name: 'Ada' } }, 'billing_address.first_name'],
    [{ token: 'tok_visa', billing_address: cardBilling, card_on_file: true }, 'card_on_file'],
    [{ token: 'tok_ach', billing_address: cardBilling }, 'token'],
    [{ token: 'tok_unknown', billing_address: cardBilling }, 'token'],
  ];
  const cards = () => count('SELECT COUNT(*) AS n FROM customer_cards');
  const before = await cards();
  for (const [body, path] of cases) assertField(await addCard(body), path);
  assert.equal(await cards(), before);
  // Outside the US, any 5 to 10 characters.
  assert.equal((await addCard({ token: 'tok_visa', billing_address: { ...cardBilling, country: 'CA', subdivision: 'ON', postal_code: 'K1A 0B1' } })).status, 200);

  const body = { token: 'tok_visa', billing_address: cardBilling };
  const unknownCustomer = await addCard(body, cardPath(s.demo.linked_account_id, '01900000-0000-7000-8000-000000000000'));
  assert.equal(unknownCustomer.status, 404);
  assert.equal(unknownCustomer.body.error.type, 'not_found');
  assert.equal((await addCard(body, cardPath('01900000-0000-7000-8000-000000000000'))).status, 404);
  // A refused request uses nothing up: the minted bank token still pays a sale.
  const bankToken = (await s.call('POST', '/api/v1/tokens', { body: { bank_account: { routing_number: '110000000', account_number: '000123456789', account_type: 'checking' } } })).body.token;
  assertField(await addCard({ token: bankToken, billing_address: cardBilling }), 'token');
  assert.equal((await ok(sale(saleBody({ payment_details: { token: bankToken } })))).payment_method, 'ach');
  // A minted token used for a card is used up.
  const token = await mint();
  await ok(addCard({ token, billing_address: cardBilling }));
  assertField(await addCard({ token, billing_address: cardBilling }), 'token', 'invalid_request');
  // Manage Customers is the permission.
  assert.equal((await addCard(body, cardPath(), manage)).status, 403);
});

test('a linked account of another group is 404 on add card', async () => {
  const other = await otherGroup('flat', 'transaction_level');
  const account = await execute(createLinkedAccount, s.p, contextFor(s.p, other.group.id), { processor_id: other.processor.id });
  const r = await addCard({ token: 'tok_visa', billing_address: cardBilling }, cardPath(account.id));
  assert.equal(r.status, 404);
});
