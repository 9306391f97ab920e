// GET /api/v1/groups/{group_id}/processing/{linked_account_id}/transactions/reporting
// over a group of its own (so every count is exact), with a second group whose rows
// must never show up.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createGroup, createLinkedAccount, createProcessor } from '../../src/services/groups/groups.js';
import { createKey } from '../../src/services/groups/keys.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { transactionRepo } from '../../src/store/sql/repositories/transactions.js';
import type { TransactionEntity, TransactionStatus } from '../../src/domain/transactions.js';
import { settlementRepo } from '../../src/store/sql/repositories/settlement.js';
import { reportingRepo, reportingSql, type ReportScope } from '../../src/store/sql/repositories/reporting.js';
import { transactionSchema } from '../../src/domain/transactions.js';
import { monthsBefore, netAmount } from '../../src/domain/reporting.js';
import { PAGE_LIMIT_MAX } from '../../src/domain/paging.js';
import { newId } from '../../src/lib/ids.js';

const DAY = 86_400_000;
let s: TestServer;
let nowMs: number;

interface GroupFixture {
  id: string;
  account: string;
  processors: string[];
  batches: string[];
  viewKey: string;
  rows: TransactionEntity[];
}
let g: GroupFixture; // the group under test
let other: GroupFixture; // another group: its rows must never be counted
let customerKey: string; // a key of g without view_transactions

const ids = { customers: [newId(), newId()], plans: [newId(), newId()], subs: [newId(), newId()], forms: [newId(), newId()], invoices: [newId(), newId()] };

function row(groupId: string, processorId: string, i: number, over: Partial<TransactionEntity> = {}): TransactionEntity {
  const at = new Date(nowMs - (i + 1) * 3_600_000).toISOString(); // one an hour, newest first
  return {
    id: newId(), group_id: groupId, linked_account_id: null, processor_id: processorId, transaction_type: 'sale',
    payment_method: 'card', method_detail: 'card', customer_id: null, card_id: null, bank_account_id: null, brand: 'Visa',
    card_type: 'credit', first_six: '411111', last_four: String(1000 + i), customer_name: `Customer ${i}`, expiration_date: '29/12',
    avs: 'Y', cvv: 'M', issued_country: 'US', dynamic_descriptor: null, requested_amount: 1000 + i, authorized_amount: 1000 + i,
    captured_amount: 1000 + i, refunded_amount: 0, included_tax_amount: null, included_shipping_amount: null, currency: 'USD',
    description: '', source: 'api', order_id: '', po_number: '', ip_address: '', email_receipt: false, email_address: '', user_id: '',
    username: '', billing_address: {}, shipping_address: null, form_id: null, form_external_id: '', form_entry_id: '',
    subscription_id: null, plan_id: null, invoice_id: null, invoice_number: null, invoice_external_id: null, payment_link_id: null,
    destination_group_id: null, custom_fields: null, commissions: null, response_code: '00', response_text: 'Approved',
    status: 'pending', settlement_batch_id: null, created_at: at, updated_at: at,
    ...over,
  };
}

const STATUSES: TransactionStatus[] = ['settled', 'voided', 'declined', 'partially_refunded', 'refunded', 'pending', 'authorized', 'captured', 'expired', 'partially_captured'];
const BRANDS = ['Visa', 'Mastercard', 'Discover', 'American Express'];
const SOURCES = ['recurring', 'virtual_terminal', 'forms', 'wallet', 'api', 'invoice'];
const METHODS = ['card', 'customer_card', 'ach', 'customer_ach'];

/** 60 rows that vary every filtered column, with amounts that agree with their status. */
function dataset(f: Omit<GroupFixture, 'rows'>, otherGroupId: string): TransactionEntity[] {
  return Array.from({ length: 60 }, (_, i) => {
    const status = STATUSES[i % STATUSES.length]!;
    const method = METHODS[i % METHODS.length]!;
    const card = method.endsWith('card');
    const requested = 1000 + i * 10;
    const captured = ['declined', 'authorized', 'expired'].includes(status) ? 0 : status === 'partially_captured' ? requested / 2 : requested;
    const refunded = status === 'refunded' ? captured : status === 'partially_refunded' ? 300 : 0;
    const source = SOURCES[i % SOURCES.length]!;
    const alt = Math.floor(i / 6) % 2; // alternates between rows of the same source
    return row(f.id, f.processors[i % 2]!, i, {
      status,
      transaction_type: i % 3 === 0 ? 'auth' : 'sale',
      method_detail: method,
      payment_method: card ? 'card' : 'ach',
      brand: card ? BRANDS[(i >> 2) % BRANDS.length]! : null,
      source,
      requested_amount: requested,
      authorized_amount: status === 'declined' ? 0 : requested,
      captured_amount: captured,
      refunded_amount: refunded,
      customer_id: i % 4 === 0 ? null : ids.customers[i % 2]!,
      plan_id: source === 'recurring' ? ids.plans[alt]! : null,
      subscription_id: source === 'recurring' ? ids.subs[Math.floor(i / 12) % 2]! : null,
      form_id: source === 'forms' ? ids.forms[alt]! : null,
      form_external_id: source === 'forms' ? `form-${alt}` : '',
      invoice_id: source === 'invoice' ? ids.invoices[alt]! : null,
      invoice_number: source === 'invoice' ? `INV-${alt}` : null,
      invoice_external_id: source === 'invoice' ? `ext-${alt}` : null,
      order_id: i % 5 === 0 ? 'ORD-A' : `ORD-${i}`,
      settlement_batch_id: ['settled', 'refunded', 'partially_refunded'].includes(status) ? f.batches[i % 2]! : null,
      destination_group_id: i % 7 === 0 ? otherGroupId : null,
    });
  });
}

async function makeGroup(name: string): Promise<Omit<GroupFixture, 'rows'>> {
  const group = await execute(createGroup, s.p, contextFor(s.p, undefined), { name });
  const p1 = await execute(createProcessor, s.p, contextFor(s.p, group.id), { type: 'transaction_level', name: `${name} processor A` });
  const p2 = await execute(createProcessor, s.p, contextFor(s.p, group.id), { type: 'merchant_level', name: `${name} processor B` });
  const account = await execute(createLinkedAccount, s.p, contextFor(s.p, group.id), { processor_id: p1.id });
  const viewKey = (await execute(createKey, s.p, contextFor(s.p, group.id), { permissions: ['view_transactions'] })).key;
  const batches = [newId(), newId()];
  await s.p.db.write(async (tx) => {
    for (const id of batches) {
      await settlementRepo.insertBatch(tx, { id, group_id: group.id, cutoff_at: s.p.clock.nowIso(), transaction_count: 0, total_amount: 0, created_at: s.p.clock.nowIso() });
    }
  });
  return { id: group.id, account: account.id, processors: [p1.id, p2.id], batches, viewKey };
}

const insert = (rows: TransactionEntity[]) => s.p.db.write((tx) => transactionRepo.insertMany(tx, rows));

before(async () => {
  s = await startTestServer();
  nowMs = s.p.clock.now().getTime();
  const a = await makeGroup('Reporting A');
  const b = await makeGroup('Reporting B');
  g = { ...a, rows: dataset(a, b.id) };
  other = { ...b, rows: dataset(b, a.id) };
  await insert(g.rows);
  await insert(other.rows);
  customerKey = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_customers'] })).key;
});
after(() => s.close());

const path = (f: GroupFixture = g, account = f.account) => `/api/v1/groups/${f.id}/processing/${account}/transactions/reporting`;
const get = (qs: string, f: GroupFixture = g, key = f.viewKey) => s.call('GET', `${path(f)}?${qs}`, { key });

async function tableIds(qs: string, f: GroupFixture = g): Promise<string[]> {
  const r = await get(`type=table&limit=${PAGE_LIMIT_MAX}&${qs}`, f);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.total_count, r.body.items.length);
  return r.body.items.map((t: { id: string }) => t.id);
}

/** Newest first: created_at desc, then id desc. */
const ordered = (rows: TransactionEntity[]) =>
  [...rows].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1)).map((r) => r.id);

test('type=table returns Transaction objects newest first and total_count', async () => {
  const r = await get('type=table&limit=5');
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body).sort(), ['items', 'total_count']);
  assert.equal(r.body.total_count, g.rows.length);
  assert.equal(r.body.items.length, 5);
  assert.deepEqual(r.body.items.map((t: { id: string }) => t.id), ordered(g.rows).slice(0, 5));
  for (const t of r.body.items) transactionSchema.parse(t);
  const first = r.body.items[0];
  const src = g.rows.find((x) => x.id === first.id)!;
  assert.equal(first.processor_name, src.processor_id === g.processors[0] ? 'Reporting A processor A' : 'Reporting A processor B');
  assert.equal(first.amounts.requested_amount, src.requested_amount);
  assert.equal(first.status, src.status);
});

test('type=count returns only total_count; type=amount_sum only total_amount', async () => {
  const c = await get('type=count');
  assert.equal(c.status, 200);
  assert.deepEqual(c.body, { total_count: g.rows.length });
  const a = await get('type=amount_sum');
  assert.equal(a.status, 200);
  assert.deepEqual(Object.keys(a.body), ['total_amount']);
  assert.equal(a.body.total_amount, g.rows.reduce((sum, r) => sum + netAmount(r), 0));
});

test('amount_sum is captured − refunded for money-moving statuses and 0 for authorized, declined, voided, expired', async () => {
  const byStatus = async (st: string) => (await get(`type=amount_sum&statuses=${st}`)).body.total_amount as number;
  const sumOf = (st: string) => g.rows.filter((r) => r.status === st).reduce((n, r) => n + r.captured_amount - r.refunded_amount, 0);
  for (const st of ['settled', 'pending', 'captured', 'partially_captured', 'partially_refunded']) {
    assert.ok(sumOf(st) > 0);
    assert.equal(await byStatus(st), sumOf(st), st);
  }
  assert.equal(await byStatus('refunded'), 0); // fully refunded: nothing kept
  for (const st of ['authorized', 'declined', 'expired']) assert.equal(await byStatus(st), 0, st);
  // A voided sale may still carry its captured amount; it adds nothing.
  assert.ok(g.rows.some((r) => r.status === 'voided' && r.captured_amount > 0));
  assert.equal(await byStatus('voided'), 0);
  assert.equal(await byStatus('voided,authorized'), 0);
});

test('type missing or unknown is a 400 naming type', async () => {
  for (const qs of ['', 'type=', 'type=list', 'type=TABLE', 'type[]=table']) {
    const r = await get(qs);
    assert.equal(r.status, 400, qs);
    assert.equal(r.body.error.type, 'validation_error');
    assert.ok(r.body.error.fields.some((f: { path: string }) => f.path === 'type'), `${qs}: ${r.text}`);
  }
  const twice = await get('type=table&type=count');
  assert.equal(twice.status, 400);
  assert.match(twice.body.error.message, /type: must be given once/);
});

// Each filter: the rows it must include (by the stored column), checked against
// rows it must exclude.
const filterCases: Array<{ name: string; qs: () => string; match: (r: TransactionEntity) => boolean }> = [
  { name: 'brands', qs: () => 'brands=Mastercard', match: (r) => r.brand === 'Mastercard' },
  { name: 'brands (two, with a space)', qs: () => 'brands=American%20Express&brands=Discover', match: (r) => r.brand === 'American Express' || r.brand === 'Discover' },
  { name: 'payment_types', qs: () => 'payment_types=auth', match: (r) => r.transaction_type === 'auth' },
  { name: 'payment_types (sale + a type that matches nothing)', qs: () => 'payment_types=sale,refund', match: (r) => r.transaction_type === 'sale' },
  { name: 'payment_methods', qs: () => 'payment_methods=customer_card&payment_methods=ach', match: (r) => r.method_detail === 'customer_card' || r.method_detail === 'ach' },
  { name: 'settlement_batches', qs: () => `settlement_batches=${g.batches[0]}`, match: (r) => r.settlement_batch_id === g.batches[0] },
  { name: 'payment_processors', qs: () => `payment_processors=${g.processors[1]}`, match: (r) => r.processor_id === g.processors[1] },
  { name: 'transaction_sources', qs: () => 'transaction_sources=forms,invoice', match: (r) => r.source === 'forms' || r.source === 'invoice' },
  { name: 'transaction_id', qs: () => `transaction_id=${g.rows[3]!.id}&transaction_id=${g.rows[17]!.id}`, match: (r) => r.id === g.rows[3]!.id || r.id === g.rows[17]!.id },
  { name: 'form_ids', qs: () => `form_ids=${ids.forms[0]}`, match: (r) => r.form_id === ids.forms[0] },
  { name: 'form_custom_ids', qs: () => 'form_custom_ids=form-1', match: (r) => r.form_external_id === 'form-1' },
  { name: 'statuses', qs: () => 'statuses=settled&statuses=pending', match: (r) => r.status === 'settled' || r.status === 'pending' },
  { name: 'statuses (partially_captured)', qs: () => 'statuses=partially_captured', match: (r) => r.status === 'partially_captured' },
  { name: 'order_id', qs: () => 'order_id=ORD-A', match: (r) => r.order_id === 'ORD-A' },
  { name: 'plan_ids', qs: () => `plan_ids=${ids.plans[1]}`, match: (r) => r.plan_id === ids.plans[1] },
  { name: 'subscription_ids', qs: () => `subscription_ids=${ids.subs[0]}`, match: (r) => r.subscription_id === ids.subs[0] },
  { name: 'customer_ids', qs: () => `customer_ids=${ids.customers[1]}`, match: (r) => r.customer_id === ids.customers[1] },
  { name: 'destination_group_id', qs: () => `destination_group_id=${other.id}`, match: (r) => r.destination_group_id === other.id },
  { name: 'source_or_destination_group_id (other group)', qs: () => `source_or_destination_group_id=${other.id}`, match: (r) => r.destination_group_id === other.id },
  { name: 'invoice_numbers', qs: () => 'invoice_numbers=INV-0', match: (r) => r.invoice_number === 'INV-0' },
  { name: 'invoice_ids', qs: () => `invoice_ids=${ids.invoices[1]}`, match: (r) => r.invoice_id === ids.invoices[1] },
  { name: 'invoice_external_ids', qs: () => 'invoice_external_ids=ext-0,ext-1', match: (r) => r.invoice_external_id === 'ext-0' || r.invoice_external_id === 'ext-1' },
  { name: 'two filters together', qs: () => 'statuses=settled,refunded&brands=Visa', match: (r) => (r.status === 'settled' || r.status === 'refunded') && r.brand === 'Visa' },
];

for (const c of filterCases) {
  test(`filter ${c.name}: includes the matching rows, excludes the others`, async () => {
    const want = g.rows.filter(c.match);
    assert.ok(want.length > 0 && want.length < g.rows.length, 'the data must have rows on both sides');
    assert.deepEqual(await tableIds(c.qs()), ordered(want));
    assert.deepEqual((await get(`type=count&${c.qs()}`)).body, { total_count: want.length });
    assert.deepEqual((await get(`type=amount_sum&${c.qs()}`)).body, { total_amount: want.reduce((n, r) => n + netAmount(r), 0) });
  });
}

test('filters that match every row or none: currencies=USD, source_group_id, payment types the platform has no rows of', async () => {
  assert.equal((await get('type=count&currencies=USD')).body.total_count, g.rows.length);
  assert.equal((await get(`type=count&source_group_id=${g.id}`)).body.total_count, g.rows.length);
  assert.equal((await get(`type=count&source_group_id=${other.id}`)).body.total_count, 0);
  assert.equal((await get(`type=count&source_or_destination_group_id=${g.id}`)).body.total_count, g.rows.length);
  assert.equal((await get('type=count&payment_types=refund&payment_types=payout')).body.total_count, 0);
  assert.equal((await get('type=count&payment_methods=wallet')).body.total_count, 0);
  assert.equal((await get('type=count&form_custom_ids=nope')).body.total_count, 0);
});

test('array encodings: repeated keys, bracket keys, comma lists and mixtures agree', async () => {
  const want = ordered(g.rows.filter((r) => ['settled', 'pending', 'declined'].includes(r.status)));
  for (const qs of [
    'statuses=settled&statuses=pending&statuses=declined',
    'statuses[]=settled&statuses[]=pending&statuses[]=declined',
    'statuses%5B%5D=settled&statuses%5B%5D=pending&statuses%5B%5D=declined',
    'statuses=settled,pending,declined',
    'statuses=settled%2Cpending&statuses[]=declined',
    'statuses=settled,,pending,&statuses=declined,settled',
  ]) {
    assert.deepEqual(await tableIds(qs), want, qs);
  }
  // A UUID list the same way.
  const two = [g.rows[1]!.id, g.rows[2]!.id];
  assert.deepEqual(await tableIds(`transaction_id[]=${two[0]}&transaction_id=${two[1]}`), two);
  assert.deepEqual(await tableIds(`transaction_id=${two.join(',')}`), two);
  // An empty list is no filter.
  assert.equal((await get('type=count&statuses=')).body.total_count, g.rows.length);
});

test('a bad enum value is a 400 naming the value and the parameter', async () => {
  const cases: Array<[string, string, string]> = [
    ['brands=visa', 'brands.0', '"visa"'],
    ['brands=Visa,Maestro', 'brands.1', '"Maestro"'],
    ['payment_types=capture', 'payment_types.0', '"capture"'],
    ['payment_methods=paypal', 'payment_methods.0', '"paypal"'],
    ['transaction_sources=pos', 'transaction_sources.0', '"pos"'],
    ['currencies=EUR', 'currencies.0', '"EUR"'],
    ['statuses[]=settled&statuses[]=setled', 'statuses.1', '"setled"'],
  ];
  for (const [qs, fieldPath, value] of cases) {
    for (const type of ['table', 'count', 'amount_sum']) {
      const r = await get(`type=${type}&${qs}`);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error.type, 'validation_error');
      const f = r.body.error.fields.find((x: { path: string }) => x.path === fieldPath);
      assert.ok(f, `${qs}: ${r.text}`);
      assert.ok(f.message.includes(value), f.message);
      assert.ok(r.body.error.message.includes(fieldPath), r.body.error.message);
    }
  }
});

test('UUID filters refuse what is not a UUID', async () => {
  for (const p of ['settlement_batches', 'payment_processors', 'transaction_id', 'form_ids', 'plan_ids', 'subscription_ids', 'customer_ids', 'invoice_ids']) {
    const r = await get(`type=count&${p}=${g.batches[0]},not-a-uuid`);
    assert.equal(r.status, 400, p);
    assert.deepEqual(r.body.error.fields, [{ path: `${p}.1`, message: '"not-a-uuid" is not a UUID' }]);
  }
  for (const p of ['source_group_id', 'destination_group_id', 'source_or_destination_group_id']) {
    const r = await get(`type=count&${p}=123`);
    assert.equal(r.status, 400, p);
    assert.equal(r.body.error.fields[0].path, p);
  }
});

test('unknown parameters, lists for single-valued ones and malformed numbers and times are 400s', async () => {
  const cases: Array<[string, string]> = [
    ['status=settled', 'status'],
    ['order_id=a&order_id=b', 'order_id'],
    ['order_id[]=a', 'order_id[]'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-5', 'offset'],
    ['start=yesterday', 'start'],
    ['end=2026-13-01T00:00:00Z', 'end'],
    ['start=2026-02-30', 'start'],
  ];
  for (const [qs, field] of cases) {
    const r = await get(`type=count&${qs}`);
    assert.equal(r.status, 400, qs);
    assert.ok(r.body.error.fields.some((f: { path: string }) => f.path === field), `${qs}: ${r.text}`);
  }
  const startAfterEnd = await get('type=count&start=2026-02-01T00:00:00Z&end=2026-01-01T00:00:00Z');
  assert.equal(startAfterEnd.status, 400);
  assert.equal(startAfterEnd.body.error.fields[0].path, 'start');
});

test(`limit defaults to 50, ${PAGE_LIMIT_MAX} is the most, more is refused (400), 0 gives only the count`, async () => {
  const d = await get('type=table');
  assert.equal(d.body.items.length, 50);
  assert.equal(d.body.total_count, g.rows.length);
  assert.equal((await get(`type=table&limit=${PAGE_LIMIT_MAX}`)).body.items.length, g.rows.length);
  for (const limit of [PAGE_LIMIT_MAX + 1, 100000]) {
    const r = await get(`type=table&limit=${limit}`);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error.fields, [{ path: 'limit', message: `must be at most ${PAGE_LIMIT_MAX}` }]);
  }
  assert.deepEqual((await get('type=table&limit=0')).body, { items: [], total_count: g.rows.length });
  assert.deepEqual((await get('type=table&offset=1000')).body, { items: [], total_count: g.rows.length });
});

test('limit/offset paging is stable: pages join to the whole ordered result, ties broken by id', async () => {
  // Five rows in the same millisecond: the order among them is by id, descending.
  const tieAt = new Date(nowMs - 90 * 60_000).toISOString();
  const ties = Array.from({ length: 5 }, (_, i) => row(g.id, g.processors[0]!, 100 + i, { created_at: tieAt, updated_at: tieAt, status: 'voided' }));
  await insert(ties);
  g.rows.push(...ties);
  try {
    const all = ordered(g.rows);
    const seen: string[] = [];
    for (let offset = 0; offset < all.length; offset += 7) {
      const r = await get(`type=table&limit=7&offset=${offset}`);
      assert.equal(r.body.total_count, all.length);
      seen.push(...r.body.items.map((t: { id: string }) => t.id));
    }
    assert.deepEqual(seen, all);
    // Asking again gives the same pages.
    assert.deepEqual((await get('type=table&limit=7&offset=7')).body.items.map((t: { id: string }) => t.id), all.slice(7, 14));
  } finally {
    await s.p.db.write((tx) => tx.run(`DELETE FROM transactions WHERE id IN (${ties.map(() => '?').join(', ')})`, ties.map((t) => t.id)));
    g.rows.splice(g.rows.length - ties.length);
  }
});

test("only the path group's transactions, ever; another group's linked account is 404", async () => {
  const mine = new Set(g.rows.map((r) => r.id));
  const items = await tableIds('');
  assert.ok(items.every((id) => mine.has(id)));
  assert.equal(items.length, g.rows.length);
  // Filters that name the other group's rows or group still return only ours.
  assert.deepEqual(await tableIds(`transaction_id=${other.rows[0]!.id}`), []);
  assert.deepEqual(await tableIds(`payment_processors=${other.processors[0]}`), []);
  assert.deepEqual(await tableIds(`settlement_batches=${other.batches[0]}`), []);
  assert.equal((await get(`type=count&source_or_destination_group_id=${other.id}`)).body.total_count, g.rows.filter((r) => r.destination_group_id === other.id).length);
  // The other group sees its own rows only.
  assert.equal((await get('type=count', other)).body.total_count, other.rows.length);
  const r = await s.call('GET', `${path(g, other.account)}?type=count`, { key: g.viewKey });
  assert.equal(r.status, 404);
  assert.equal(r.body.error.type, 'not_found');
  assert.equal((await s.call('GET', `${path(g, newId())}?type=count`, { key: g.viewKey })).status, 404);
});

test('401 without a key or with an unknown one; 403 for a key without view_transactions or of another group', async () => {
  assert.equal((await s.call('GET', `${path()}?type=count`)).status, 401);
  assert.equal((await get('type=count', g, 'sk_test_unknown000000000000000000000')).status, 401);
  const wrongPerm = await get('type=count', g, customerKey);
  assert.equal(wrongPerm.status, 403);
  assert.equal(wrongPerm.body.error.type, 'permission_error');
  assert.equal((await get('type=count', g, other.viewKey)).status, 403);
  assert.equal((await get('type=count', g, s.demo.keys.manage_transactions)).status, 403);
});

test('start and end are inclusive; whole days come from the rollup and agree with the rows', async () => {
  // Rows at and around UTC midnights a few days back, plus changes after insertion
  // (the rollup's triggers), checked against a count over the rows themselves.
  const midnight = Math.floor(nowMs / DAY) * DAY - 3 * DAY;
  const at = [midnight - 1, midnight, midnight + 1, midnight + DAY - 1, midnight + DAY, midnight + 2 * DAY + 5];
  const extra = at.map((t, i) =>
    row(g.id, g.processors[0]!, 200 + i, { created_at: new Date(t).toISOString(), updated_at: new Date(t).toISOString(), status: 'pending', brand: 'Discover' }),
  );
  await insert(extra);
  g.rows.push(...extra);
  await s.p.db.write(async (tx) => {
    await transactionRepo.setStatus(tx, extra[1]!.id, ['pending'], 'voided', s.p.clock.nowIso());
    extra[1]!.status = 'voided';
  });
  const iso = (t: number) => new Date(t).toISOString();
  const windows: Array<[number, number]> = [
    [midnight, midnight + DAY - 1],
    [midnight - 1, midnight + 2 * DAY + 5],
    [midnight + 1, midnight + DAY],
    [midnight - 5 * DAY, midnight + 10 * DAY],
    [midnight + 2 * DAY + 5, midnight + 2 * DAY + 5],
  ];
  for (const [a, b] of windows) {
    // The status and one of brand, method, source: the per-dimension rollup; a type filter: transaction_daily.
    for (const extraQs of ['', '&brands=Discover', '&statuses=pending', '&statuses=pending&brands=Discover', '&statuses=voided&payment_types=sale']) {
      const qs = `start=${iso(a)}&end=${iso(b)}${extraQs}`;
      const r = await get(`type=count&${qs}`);
      assert.equal(r.status, 200, r.text);
      const sp = new URLSearchParams(qs);
      const want = g.rows.filter(
        (x) =>
          x.created_at >= iso(a) && x.created_at <= iso(b) &&
          (!sp.get('brands') || x.brand === sp.get('brands')) &&
          (!sp.get('statuses') || x.status === sp.get('statuses')) &&
          (!sp.get('payment_types') || x.transaction_type === sp.get('payment_types')),
      );
      assert.equal(r.body.total_count, want.length, qs);
      assert.equal((await get(`type=amount_sum&${qs}`)).body.total_amount, want.reduce((n, x) => n + netAmount(x), 0), qs);
      // The same count straight from the rows (no rollup) agrees.
      const scope = { groupId: g.id, start: iso(a), end: iso(b), filters: {} };
      const direct = reportingSql.countFromRows(scope);
      assert.equal((await s.p.db.get<{ v: number }>(direct.sql, direct.params))!.v, await reportingRepo.count(s.p.db, scope));
      const filtered = { ...scope, filters: { statuses: ['pending' as const], brands: ['Discover' as const] } };
      const filteredDirect = reportingSql.countFromRows(filtered);
      assert.equal((await s.p.db.get<{ v: number }>(filteredDirect.sql, filteredDirect.params))!.v, await reportingRepo.count(s.p.db, filtered));
    }
  }
  // Which rollup answers whole days: the per-dimension one for the status and one of brand, method, source.
  const wholeWindow = { groupId: g.id, start: iso(midnight - 5 * DAY), end: iso(midnight + 10 * DAY) };
  for (const [filters, table] of [
    [{}, 'transaction_daily_dims'],
    [{ statuses: ['pending'], transaction_sources: ['api'] }, 'transaction_daily_dims'],
    [{ payment_methods: ['visa'] }, 'transaction_daily_dims'],
    [{ brands: ['Visa'], transaction_sources: ['api'] }, 'transaction_daily '],
    [{ payment_types: ['sale'] }, 'transaction_daily '],
  ] as const) {
    for (const q of [reportingSql.count({ ...wholeWindow, filters: filters as ReportScope['filters'] }), reportingSql.amountSum({ ...wholeWindow, filters: filters as ReportScope['filters'] })]) {
      assert.ok(q.sql.includes(`FROM ${table}`), `${JSON.stringify(filters)} reads ${table}: ${q.sql}`);
    }
  }
  // Time zones and a date-only start read as the same instants.
  const day = iso(midnight).slice(0, 10);
  const dateOnly = await get(`type=count&start=${day}&end=${iso(midnight + DAY - 1)}`);
  const zoned = await get(`type=count&start=${day}T02:00:00%2B02:00&end=${iso(midnight + DAY - 1)}`);
  const plusAsSpace = await get(`type=count&start=${day}T02:00:00+02:00&end=${iso(midnight + DAY - 1)}`);
  assert.equal(dateOnly.body.total_count, g.rows.filter((x) => x.created_at >= iso(midnight) && x.created_at <= iso(midnight + DAY - 1)).length);
  assert.ok(dateOnly.body.total_count >= 3);
  assert.deepEqual(zoned.body, dateOnly.body);
  assert.deepEqual(plusAsSpace.body, dateOnly.body);
});

test('start and end default to 6 months before now and now, on the platform clock', async () => {
  const f = await makeGroup('Reporting clock');
  const fx: GroupFixture = { ...f, rows: [] };
  const now = s.p.clock.now();
  const at = (d: Date) => ({ created_at: d.toISOString(), updated_at: d.toISOString(), status: 'voided' as const });
  const old = row(f.id, f.processors[0]!, 0, at(new Date(monthsBefore(now, 6).getTime() - 60_000))); // just outside
  const inside = row(f.id, f.processors[0]!, 0, at(new Date(monthsBefore(now, 6).getTime() + 86_400_000))); // 6 months less a day ago
  const recent = row(f.id, f.processors[0]!, 0, at(new Date(now.getTime() - 60_000)));
  const future = row(f.id, f.processors[0]!, 0, at(new Date(now.getTime() + 10 * DAY))); // after "now" until the clock moves
  await insert([old, inside, recent, future]);
  assert.deepEqual(await tableIds('', fx), [recent.id, inside.id]);
  // Ten days later (platform clock): the future row is in, `inside` has fallen out.
  await advanceClock(s.p, 10 * DAY + 60_000);
  assert.deepEqual(await tableIds('', fx), [future.id, recent.id]);
  assert.equal((await get('type=count', fx)).body.total_count, 2);
  // An end before the default start, without a start, is explained.
  const r = await get('type=count&end=2000-01-01T00:00:00Z', fx);
  assert.equal(r.status, 400);
  assert.equal(r.body.error.fields[0].path, 'end');
  assert.match(r.body.error.fields[0].message, /give start too/);
});
