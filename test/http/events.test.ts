// The event log over HTTP: events written in the transaction of the change (none for a
// refused or rolled-back request, none for an idempotent replay), objects exactly as the
// API returns them, clock-driven events with `request: null`, filters, paging and who
// may read what.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after, describe } from 'node:test';
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody, cardTokenBody } from '../helpers/bodies.js';
import { createKey } from '../../src/services/groups/keys.js';
import { createGroup } from '../../src/services/groups/groups.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { EVENT_TYPES, eventSchemaOf, type EventType } from '../../src/domain/events.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const base = () => `/api/v1/groups/${s.demo.group_id}`;
const hooks = () => s.demo.keys.manage_webhooks;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function events(query = '', key = hooks()): Promise<any[]> {
  const r = await s.call('GET', `${base()}/events${query}`, { key });
  assert.equal(r.status, 200, r.text);
  return r.body.data.items;
}
const newest = async (type: string) => (await events(`?types=${type}&limit=1`))[0];

/** Every event answered must match its type's zod schema (the one the OpenAPI document uses). */
function checkSchema(e: { type: string }) {
  const r = eventSchemaOf(e.type as EventType).safeParse(e);
  assert.ok(r.success, `${e.type}: ${JSON.stringify(r.error?.issues)}`);
}

describe('events', () => {
  test('a sale writes transaction.approved with the object the API answered, the request id and Idempotency-Key; a replay adds none', async () => {
    // A key of no digit run (a timestamp's 13 digits pass the Luhn check one time in ten and
    // are then kept as a card number would be: the next test).
    const headers = { 'idempotency-key': `evt-${randomUUID()}` };
    const r = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id), headers });
    assert.equal(r.status, 200, r.text);
    const e = await newest('transaction.approved');
    assert.equal(e.data.object.id, r.body.id);
    assert.deepEqual(e.data.object, r.body);
    assert.equal(e.group_id, s.demo.group_id);
    assert.equal(e.request.idempotency_key, headers['idempotency-key']);
    assert.equal(typeof e.request.id, 'string');
    assert.match(e.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    checkSchema(e);
    const count = (await events('?types=transaction.*&limit=1000')).length;
    const replay = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id), headers });
    assert.deepEqual(replay.body, r.body);
    assert.equal((await events('?types=transaction.*&limit=1000')).length, count, 'a replay emits nothing');
    const got = await s.call('GET', `${base()}/events/${e.id}`, { key: hooks() });
    assert.deepEqual(got.body, e);
  });

  test('an Idempotency-Key holding a card number is kept with the number redacted; the replay still matches the key as sent', async () => {
    const headers = { 'idempotency-key': `order-4111111111111111-${randomUUID()}` };
    const r = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id), headers });
    assert.equal(r.status, 200, r.text);
    const e = await newest('transaction.approved');
    assert.equal(e.data.object.id, r.body.id);
    assert.equal(e.request.idempotency_key, headers['idempotency-key'].replace('4111111111111111', '[redacted]'));
    const replay = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id), headers });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, r.body.id);
  });

  test('a declined charge writes transaction.declined; a refused request writes nothing', async () => {
    const before = (await events('?limit=1000')).length;
    const bad = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: { ...saleBody(s.demo.processor_id), amounts: {} } });
    assert.equal(bad.status, 400);
    // A charge on a used-up one-time token fails inside the write: nothing of it stays.
    const tok = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody('4111111111111111', '123') });
    assert.equal((await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { token: tok.body.token }) })).status, 200);
    const afterFirst = (await events('?limit=1000')).length;
    const reused = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { token: tok.body.token }) });
    assert.equal(reused.status, 400, reused.text);
    assert.equal((await events('?limit=1000')).length, afterFirst, 'a rolled-back write leaves no event');
    assert.equal(afterFirst, before + 1);
    const d = await s.call('POST', `${base()}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { token: 'tok_visa_declined' }) });
    const e = await newest('transaction.declined');
    assert.equal(e.data.object.id, d.body.id ?? d.body.error?.transaction_id ?? e.data.object.id);
    assert.equal(e.data.object.status, 'declined');
    checkSchema(e);
  });

  test('no event carries a full card number or CVV', async () => {
    const tok = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody('5555555555554444', '987') });
    const cust = await s.call('POST', `${base()}/customers`, { key: s.demo.keys.manage_customers, body: { first_name: 'Card', last_name: 'Holder' } });
    const card = await s.call('POST', `${base()}/processing/${s.demo.linked_account_id}/customers/${cust.body.id}/payment_methods/card`, {
      key: s.demo.keys.manage_customers,
      body: { token: tok.body.token, billing_address: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' } },
    });
    assert.equal(card.status, 200, card.text);
    const added = await newest('card.added');
    assert.deepEqual(added.data.object, card.body);
    checkSchema(added);
    checkSchema(await newest('customer.created'));
    const all = JSON.stringify(await events('?limit=1000'));
    assert.ok(!all.includes('5555555555554444') && !all.includes('4111111111111111'), 'no full card number');
    // Transactions carry the processor's CVV check result under "cvv", never the digits.
    assert.ok(!/"cvv":"(987|123)"/.test(all), 'no CVV');
  });

  test('capture, void, refund and the clock: settlement and expiry are events of the clock (request null) at the group time', async () => {
    const key = s.demo.keys.manage_transactions;
    const auth = await s.call('POST', `${base()}/transaction`, { key, body: saleBody(s.demo.processor_id, { type: 'auth' }) });
    const cap = await s.call('POST', `${base()}/transaction/${auth.body.id}/capture`, { key, body: { amount: auth.body.authorized_amount ?? 1234 } });
    assert.equal(cap.status, 200, cap.text);
    assert.deepEqual((await newest('transaction.captured')).data.object, cap.body);
    const sale = await s.call('POST', `${base()}/transaction`, { key, body: saleBody(s.demo.processor_id) });
    const v = await s.call('POST', `${base()}/transaction/${sale.body.id}/void`, { key });
    assert.equal(v.status, 200, v.text);
    assert.deepEqual((await newest('transaction.voided')).data.object, v.body);
    const old = await s.call('POST', `${base()}/transaction`, { key, body: saleBody(s.demo.processor_id, { type: 'auth' }) });

    await advanceClock(s.p, 86_400_000 + 60_000);
    const settled = (await events('?types=transaction.settled&limit=1000')).find((e) => e.data.object.id === auth.body.id);
    assert.ok(settled, 'the captured auth settled with an event');
    assert.equal(settled.request, null);
    checkSchema(settled);
    const got = await s.call('GET', `${base()}/transaction/${auth.body.id}`, { key });
    assert.deepEqual(settled.data.object, got.body);
    const batch = await newest('settlement_batch.closed');
    assert.ok(got.body.settlement_batch_ids.includes(batch.data.object.id));
    assert.equal(batch.request, null);
    checkSchema(batch);

    const refund = await s.call('POST', `${base()}/transaction/${auth.body.id}/refund`, { key, body: { amount: 100 } });
    assert.equal(refund.status, 200, refund.text);
    assert.deepEqual((await newest('transaction.refunded')).data.object, refund.body);

    await advanceClock(s.p, 8 * 86_400_000);
    const expired = (await events('?types=transaction.expired&limit=1000')).find((e) => e.data.object.id === old.body.id);
    assert.ok(expired, 'the never-captured auth expired with an event');
    assert.equal(expired.request, null);
    assert.equal(expired.data.object.status, 'expired');
  });

  test('product.updated carries previous_attributes; an update that changes nothing emits none', async () => {
    const key = s.demo.keys.manage_products;
    const body = { name: 'Evt widget', description: 'd', amount: 500, included_tax_amount: 0, unit_of_measure: 'pc' };
    const p = await s.call('POST', `${base()}/products`, { key, body });
    assert.deepEqual((await newest('product.created')).data.object, p.body);
    const u = await s.call('PUT', `${base()}/products/${p.body.id}`, { key, body: { ...body, amount: 700 } });
    assert.equal(u.status, 200, u.text);
    const e = await newest('product.updated');
    assert.deepEqual(e.data.object, u.body);
    assert.deepEqual(e.data.previous_attributes, { amount: 500 });
    checkSchema(e);
    const n = (await events('?types=product.updated&limit=1000')).length;
    await s.call('PUT', `${base()}/products/${p.body.id}`, { key, body: { ...body, amount: 700 } });
    assert.equal((await events('?types=product.updated&limit=1000')).length, n);
  });

  test('plans and subscriptions: created, updated with previous_attributes, charged by the request and then by the clock (request null), canceled', async () => {
    const key = s.demo.keys.manage_transactions;
    const rec = `${base()}/processing/${s.demo.linked_account_id}/recurring`;
    const plan = await s.call('POST', `${rec}/plans`, { key, body: { name: 'Evt plan', amount: 1500, billing_cycle: 'daily', billing_factor: 1, duration: '3', tax: 0 } });
    assert.equal(plan.status, 200, plan.text);
    assert.deepEqual((await newest('plan.created')).data.object, plan.body);
    const sub = await s.call('POST', `${rec}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: s.demo.customer_id, card_id: s.demo.card_id } });
    assert.equal(sub.status, 200, sub.text);
    const created = await newest('subscription.created');
    assert.deepEqual(created.data.object, sub.body);
    const firstCharge = await newest('subscription.charged');
    assert.equal(firstCharge.data.object.id, sub.body.id);
    assert.equal(firstCharge.request.id, created.request.id, 'the first charge belongs to the create request');
    checkSchema(firstCharge);

    await advanceClock(s.p, 86_400_000 + 60_000);
    const charged = (await events('?types=subscription.charged&limit=1000')).filter((e) => e.data.object.id === sub.body.id);
    assert.equal(charged.length, 2);
    assert.equal(charged[0].request, null, 'the renewal is the clock\'s');
    const got = await s.call('GET', `${rec}/subscription/${sub.body.id}`, { key });
    assert.deepEqual(charged[0].data.object, got.body);
    const renewal = (await events('?types=transaction.approved&limit=5')).find((e) => e.data.object.subscription_id === sub.body.id && e.request === null);
    assert.ok(renewal, 'the renewal charge is a transaction.approved of the clock');

    const cancel = await s.call('POST', `${rec}/subscription/${sub.body.id}/cancel`, { key });
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual((await newest('subscription.canceled')).data.object, cancel.body);
  });

  test('filters: types with wildcards, created_from/to, limit and the starting_after cursor, newest first', async () => {
    const all = await events('?limit=1000');
    assert.ok(all.length >= 8);
    const ids = all.map((e) => e.id);
    assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
    const tx = await events('?types=transaction.*,card.added&limit=1000');
    assert.deepEqual((await events('?types=transaction.*&types=card.added&limit=1000')).map((e) => e.id), tx.map((e) => e.id), 'repeated types read as the comma form');
    assert.ok(tx.length > 0 && tx.every((e) => e.type.startsWith('transaction.') || e.type === 'card.added'));
    assert.equal(tx.length, all.filter((e) => e.type.startsWith('transaction.') || e.type === 'card.added').length);
    const page1 = await s.call('GET', `${base()}/events?limit=3`, { key: hooks() });
    assert.equal(page1.body.data.items.length, 3);
    assert.equal(page1.body.data.has_more, true);
    const page2 = await events(`?limit=3&starting_after=${page1.body.data.items[2].id}`);
    assert.deepEqual(page2.map((e) => e.id), ids.slice(3, 6));
    const from = all[2].created_at;
    const since = await events(`?limit=1000&created_from=${encodeURIComponent(from)}`);
    assert.ok(since.length > 0 && since.every((e) => e.created_at >= from));
    const until = await events(`?limit=1000&created_to=${encodeURIComponent(from)}`);
    assert.ok(until.every((e) => e.created_at <= from));
  });

  test('bad queries name the field and the rule', async () => {
    for (const [q, field] of [
      ['?limit=1001', 'limit'],
      ['?limit=0', 'limit'],
      ['?types=transaction.nope', 'types'],
      ['?types=nope.*', 'types'],
      ['?created_from=yesterday', 'created_from'],
      ['?starting_after=x', 'starting_after'],
      ['?colour=red', 'colour'],
    ] as const) {
      const r = await s.call('GET', `${base()}/events${q}`, { key: hooks() });
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.ok(JSON.stringify(r.body).includes(field), `${q}: ${r.text}`);
    }
    assert.equal((await s.call('GET', `${base()}/events/00000000-0000-7000-8000-000000000000`, { key: hooks() })).status, 404);
    assert.equal((await s.call('GET', `${base()}/events/not-an-id`, { key: hooks() })).status, 404);
  });

  test('a key reads the events of the objects it may view; manage_webhooks reads all; other groups none', async () => {
    const products = await events('?limit=1000', s.demo.keys.manage_products);
    assert.ok(products.length > 0 && products.every((e) => e.type.startsWith('product.')));
    const view = await events('?limit=1000', s.demo.keys.view_transactions);
    assert.ok(view.length > 0 && view.every((e) => e.type.startsWith('transaction.') || e.type.startsWith('settlement_batch.')));
    assert.deepEqual(await events('?types=product.*', s.demo.keys.view_transactions), []);
    const tx = view[0];
    assert.equal((await s.call('GET', `${base()}/events/${tx.id}`, { key: s.demo.keys.manage_products })).status, 404);
    assert.equal((await s.call('GET', `${base()}/events/${tx.id}`, { key: s.demo.keys.view_transactions })).status, 200);
    const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Other Merchant' });
    const other = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_webhooks'] })).key;
    assert.deepEqual(await events('', other).catch(() => 'refused'), 'refused', "another group's key reads nothing here");
    const own = await s.call('GET', `/api/v1/groups/${g.id}/events`, { key: other });
    assert.deepEqual(own.body.data.items, []);
  });

  test('every catalogued type has a schema', () => {
    assert.ok(EVENT_TYPES.length >= 28);
    for (const t of EVENT_TYPES) assert.ok(eventSchemaOf(t));
  });
});
