// Products and partners over HTTP: Get/Update Product (spec 7, 8), Get All Partners
// (spec 12) and the create/get/list extensions, with every error code.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createGroup } from '../../src/services/groups/groups.js';
import { createKey } from '../../src/services/groups/keys.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';

let s: TestServer;
let other: { groupId: string; products: string; partners: string };
before(async () => {
  s = await startTestServer();
  const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Other Merchant' });
  other = {
    groupId: g.id,
    products: (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_products'] })).key,
    partners: (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_partners'] })).key,
  };
});
after(() => s.close());

const productsPath = (g = s.demo.group_id) => `/api/v1/groups/${g}/products`;
const partnersPath = (g = s.demo.group_id) => `/api/v1/groups/${g}/partners`;
const productBody = { name: 'Widget', description: 'A fine widget', amount: 1250, included_tax_amount: 100, unit_of_measure: 'pc' };
const partnerBody = {
  company: 'Acme Corp', first_name: 'Ann', last_name: 'Lee', email: 'ann@acme.test', line_1: '1 Main St', city: 'Austin',
  subdivision: 'TX', postal_code: '78701', country: 'US',
};

const paths = (r: { body: { error?: { fields?: Array<{ path: string }> } } }) => (r.body.error?.fields ?? []).map((f) => f.path);

async function createProduct(body: Record<string, unknown> = productBody) {
  const r = await s.call('POST', productsPath(), { key: s.demo.keys.manage_products, body });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

describe('products', () => {
  test('create returns the Product with every field; a missing included_tax_amount is 0', async () => {
    const p = await createProduct();
    assert.deepEqual(Object.keys(p).sort(), [
      'amount', 'created_at', 'description', 'group_id', 'id', 'included_tax_amount', 'name', 'unit_of_measure', 'updated_at',
    ]);
    assert.equal(p.group_id, s.demo.group_id);
    assert.equal(p.amount, 1250);
    assert.equal(p.included_tax_amount, 100);
    assert.match(p.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const { included_tax_amount: _t, ...noTax } = productBody;
    assert.equal((await createProduct(noTax)).included_tax_amount, 0);
  });

  test('Get Product returns it; unknown id is 404', async () => {
    const p = await createProduct();
    const r = await s.call('GET', `${productsPath()}/${p.id}`, { key: s.demo.keys.manage_products });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, p);
    const missing = await s.call('GET', `${productsPath()}/00000000-0000-4000-8000-000000000000`, { key: s.demo.keys.manage_products });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'not_found');
  });

  test('Update Product replaces every field and moves updated_at', async () => {
    const p = await createProduct();
    await advanceClock(s.p, 60_000);
    const body = { name: 'Widget Pro', description: 'Better', amount: 2000, unit_of_measure: 'pc' };
    const r = await s.call('PUT', `${productsPath()}/${p.id}`, { key: s.demo.keys.manage_products, body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Widget Pro');
    assert.equal(r.body.description, 'Better');
    assert.equal(r.body.amount, 2000);
    assert.equal(r.body.included_tax_amount, 0, 'omitted included_tax_amount means 0');
    assert.equal(r.body.created_at, p.created_at);
    assert.ok(r.body.updated_at > p.updated_at);
    const again = await s.call('GET', `${productsPath()}/${p.id}`, { key: s.demo.keys.manage_products });
    assert.deepEqual(again.body, r.body);
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['name over 100', { name: 'n'.repeat(101) }, 'name'],
    ['name empty', { name: '' }, 'name'],
    ['description over 255', { description: 'd'.repeat(256) }, 'description'],
    ['description as a number', { description: 5 }, 'description'],
    ['amount negative', { amount: -1 }, 'amount'],
    ['amount fractional', { amount: 1.5 }, 'amount'],
    ['amount above the largest amount', { amount: 100_000_000_000 }, 'amount'],
    ['amount above 2^53-1', { amount: 2 ** 53 }, 'amount'],
    ['amount as a string', { amount: '1250' }, 'amount'],
    ['included_tax_amount above amount', { included_tax_amount: 1251 }, 'included_tax_amount'],
    ['unit_of_measure kg', { unit_of_measure: 'kg' }, 'unit_of_measure'],
    ['unknown field', { group_id: 'x' }, 'group_id'],
  ];
  for (const [name, patch, path] of bad) {
    test(`PUT 400: ${name}`, async () => {
      const p = await createProduct();
      const r = await s.call('PUT', `${productsPath()}/${p.id}`, { key: s.demo.keys.manage_products, body: { ...productBody, ...patch } });
      assert.equal(r.status, 400);
      assert.equal(r.body.error.type, 'validation_error');
      assert.ok(paths(r).includes(path), JSON.stringify(r.body));
    });
  }
  for (const field of ['name', 'description', 'amount', 'unit_of_measure']) {
    test(`PUT 400: ${field} missing; POST too`, async () => {
      const p = await createProduct();
      const body: Record<string, unknown> = { ...productBody };
      delete body[field];
      const put = await s.call('PUT', `${productsPath()}/${p.id}`, { key: s.demo.keys.manage_products, body });
      assert.equal(put.status, 400);
      assert.deepEqual(paths(put), [field]);
      const post = await s.call('POST', productsPath(), { key: s.demo.keys.manage_products, body });
      assert.deepEqual(paths(post), [field]);
    });
  }

  test('PUT of an unknown product is 404; malformed JSON is 400; a non-JSON body is 415', async () => {
    const key = s.demo.keys.manage_products;
    const r = await s.call('PUT', `${productsPath()}/00000000-0000-4000-8000-000000000000`, { key, body: productBody });
    assert.equal(r.status, 404);
    const p = await createProduct();
    assert.equal((await s.call('PUT', `${productsPath()}/${p.id}`, { key, raw: '{"name":', headers: { 'content-type': 'application/json' } })).status, 400);
    assert.equal((await s.call('PUT', `${productsPath()}/${p.id}`, { key, raw: 'name=x', headers: { 'content-type': 'text/plain' } })).status, 415);
  });

  test('401 without a key; 403 without Manage Products; 403 with another group\'s key; 404 for another group\'s product', async () => {
    const p = await createProduct();
    const path = `${productsPath()}/${p.id}`;
    assert.equal((await s.call('GET', path)).status, 401);
    for (const perm of ['manage_invoices', 'view_invoices', 'manage_partners', 'manage_transactions'] as const) {
      const r = await s.call('GET', path, { key: s.demo.keys[perm] });
      assert.equal(r.status, 403, perm);
      assert.equal(r.body.error.type, 'permission_error');
      assert.equal((await s.call('PUT', path, { key: s.demo.keys[perm], body: productBody })).status, 403);
    }
    assert.equal((await s.call('GET', path, { key: other.products })).status, 403);
    const foreign = await s.call('GET', `${productsPath(other.groupId)}/${p.id}`, { key: other.products });
    assert.equal(foreign.status, 404);
    const foreignPut = await s.call('PUT', `${productsPath(other.groupId)}/${p.id}`, { key: other.products, body: productBody });
    assert.equal(foreignPut.status, 404);
  });

  test('list: name filter, paging and total_count (extension)', async () => {
    const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Product Lister' });
    const key = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_products'] })).key;
    for (const name of ['Blue Mug', 'Red Mug', 'Teapot', 'MUG rack', '100% cotton']) {
      assert.equal((await s.call('POST', productsPath(g.id), { key, body: { ...productBody, name } })).status, 200);
    }
    const all = await s.call('GET', productsPath(g.id), { key });
    assert.equal(all.body.data.total_count, 5);
    assert.deepEqual(all.body.data.items.map((x: { name: string }) => x.name), ['Blue Mug', 'Red Mug', 'Teapot', 'MUG rack', '100% cotton']);
    const mugs = await s.call('GET', `${productsPath(g.id)}?name=mug&limit=2&offset=1`, { key });
    assert.equal(mugs.body.data.total_count, 3);
    assert.deepEqual(mugs.body.data.items.map((x: { name: string }) => x.name), ['Red Mug', 'MUG rack']);
    const pct = await s.call('GET', `${productsPath(g.id)}?name=${encodeURIComponent('0%')}`, { key });
    assert.deepEqual(pct.body.data.items.map((x: { name: string }) => x.name), ['100% cotton'], '% is literal');
    assert.equal((await s.call('GET', `${productsPath(g.id)}?limit=0`, { key })).status, 400);
  });
});

describe('partners', () => {
  test('create and get (extensions); names and line_2 default to empty', async () => {
    const r = await s.call('POST', partnersPath(), { key: s.demo.keys.manage_partners, body: { ...partnerBody, first_name: undefined, last_name: undefined } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), [
      'city', 'company', 'country', 'created_at', 'email', 'first_name', 'group_id', 'id', 'last_name', 'line_1', 'line_2',
      'postal_code', 'subdivision', 'updated_at',
    ]);
    assert.equal(r.body.first_name, '');
    assert.equal(r.body.line_2, '');
    const got = await s.call('GET', `${partnersPath()}/${r.body.id}`, { key: s.demo.keys.manage_partners });
    assert.deepEqual(got.body, r.body);
    assert.equal((await s.call('GET', `${partnersPath()}/00000000-0000-4000-8000-000000000000`, { key: s.demo.keys.manage_partners })).status, 404);
    assert.equal((await s.call('GET', `${partnersPath(other.groupId)}/${r.body.id}`, { key: other.partners })).status, 404);
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['company missing', { company: undefined }, 'company'],
    ['company over 100', { company: 'c'.repeat(101) }, 'company'],
    ['email invalid', { email: 'nope' }, 'email'],
    ['line_1 over 60', { line_1: 'l'.repeat(61) }, 'line_1'],
    ['line_2 over 32', { line_2: 'l'.repeat(33) }, 'line_2'],
    ['city over 24', { city: 'c'.repeat(25) }, 'city'],
    ['country of 3 letters', { country: 'USA' }, 'country'],
    ['subdivision of 1 letter', { subdivision: 'T' }, 'subdivision'],
    ['postal_code over 10', { postal_code: '12345678901' }, 'postal_code'],
    ['first_name over 64', { first_name: 'f'.repeat(65) }, 'first_name'],
    ['unknown field', { phone: '555' }, 'phone'],
  ];
  for (const [name, patch, path] of bad) {
    test(`create 400: ${name}`, async () => {
      const r = await s.call('POST', partnersPath(), { key: s.demo.keys.manage_partners, body: { ...partnerBody, ...patch } });
      assert.equal(r.status, 400);
      assert.ok(paths(r).includes(path), JSON.stringify(r.body));
    });
  }

  test('Get All Partners: name filter on company or person, case-insensitive; paging; total_count counts all matches', async () => {
    const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Partner Lister' });
    const key = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_partners'] })).key;
    const people: Array<[string, string, string]> = [
      ['Blue Door Cafe', 'Grace', 'Hopper'],
      ['Northside Bakery', 'Alan', 'Turing'],
      ['Bakery_Two', 'Ada', 'Lovelace'],
      ['Harbor Foods', 'Edsger', 'Dijkstra'],
      ['Cafe Grace', '', ''],
      ['Zeta LLC', 'Barbara', 'Liskov'],
      ['Omega Inc', 'Grace', 'Kelly'],
    ];
    for (const [company, first_name, last_name] of people) {
      const r = await s.call('POST', partnersPath(g.id), { key, body: { ...partnerBody, company, first_name, last_name } });
      assert.equal(r.status, 200, r.text);
    }
    const list = async (q: string) => {
      const r = await s.call('GET', `${partnersPath(g.id)}${q}`, { key });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body), ['data']);
      return { names: r.body.data.items.map((x: { company: string }) => x.company) as string[], total: r.body.data.total_count as number };
    };
    assert.deepEqual(await list(''), { names: people.map((x) => x[0]), total: 7 });
    assert.deepEqual(await list('?name=GRACE'), { names: ['Blue Door Cafe', 'Cafe Grace', 'Omega Inc'], total: 3 });
    assert.deepEqual(await list('?name=bakery'), { names: ['Northside Bakery', 'Bakery_Two'], total: 2 });
    assert.deepEqual(await list('?name=turing'), { names: ['Northside Bakery'], total: 1 });
    assert.deepEqual(await list(`?name=${encodeURIComponent('ada love')}`), { names: ['Bakery_Two'], total: 1 }, 'first and last name together');
    assert.deepEqual(await list('?name=y_'), { names: ['Bakery_Two'], total: 1 }, '_ is literal, not a wildcard');
    assert.deepEqual(await list('?name=nobody'), { names: [], total: 0 });
    assert.deepEqual(await list('?name='), { names: people.map((x) => x[0]), total: 7 }, 'an empty name filters nothing');
    // Paging: total_count stays the count of every match.
    assert.deepEqual(await list('?limit=3'), { names: people.slice(0, 3).map((x) => x[0]), total: 7 });
    assert.deepEqual(await list('?limit=3&offset=3'), { names: people.slice(3, 6).map((x) => x[0]), total: 7 });
    assert.deepEqual(await list('?limit=3&offset=6'), { names: [people[6]![0]], total: 7 });
    assert.deepEqual(await list('?offset=50'), { names: [], total: 7 });
    assert.deepEqual(await list('?name=grace&limit=1&offset=1'), { names: ['Cafe Grace'], total: 3 });
  });

  for (const [q, path] of [
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
    ['limit=1&limit=2', 'limit'],
    ['sort=name', 'sort'],
    [`name=${'n'.repeat(101)}`, 'name'],
  ] as const) {
    test(`Get All Partners 400: ${q.slice(0, 30)}`, async () => {
      const r = await s.call('GET', `${partnersPath()}?${q}`, { key: s.demo.keys.manage_partners });
      assert.equal(r.status, 400);
      assert.ok(paths(r).includes(path), JSON.stringify(r.body));
    });
  }

  test('Get All Partners: 401 without key, 403 without Manage Partners or for another group', async () => {
    assert.equal((await s.call('GET', partnersPath())).status, 401);
    for (const perm of ['manage_invoices', 'view_invoices', 'manage_products'] as const) {
      assert.equal((await s.call('GET', partnersPath(), { key: s.demo.keys[perm] })).status, 403, perm);
    }
    assert.equal((await s.call('GET', partnersPath(), { key: other.partners })).status, 403);
    const own = await s.call('GET', partnersPath(other.groupId), { key: other.partners });
    assert.equal(own.status, 200);
    assert.equal(own.body.data.total_count, 0, "another group's partners are not listed");
  });

  test('demo data has partners', async () => {
    const r = await s.call('GET', partnersPath(), { key: s.demo.keys.manage_partners });
    for (const id of s.demo.partner_ids as string[]) assert.ok(r.body.data.items.some((x: { id: string }) => x.id === id));
  });
});
