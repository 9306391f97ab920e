// Invoices over HTTP: Update Invoice (spec 9), Archive (10), Download PDF (11), the
// create/get/list extensions, numbering, send_email, past_due on the platform clock,
// and paying through the public pay endpoint.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createGroup, createProcessor } from '../../src/services/groups/groups.js';
import { createKey } from '../../src/services/groups/keys.js';
import { advanceClock, setClock } from '../../src/services/clock/clock-control.js';
import { pdfText } from '../helpers/pdf-text.js';
import type { InvoiceLine } from '../../src/domain/catalog.js';

let s: TestServer;
let other: { groupId: string; processorId: string; invoices: string; productId: string };
let partnerId: string;
const products: Record<'a' | 'b' | 'c', { id: string; name: string; description: string; amount: number; included_tax_amount: number }> = {} as never;

const base = (g = s.demo.group_id) => `/api/v1/groups/${g}`;
const day = (offsetDays: number) => new Date(s.p.clock.now().getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const paths = (r: { body: { error?: { fields?: Array<{ path: string }> } } }) => (r.body.error?.fields ?? []).map((f) => f.path);

before(async () => {
  s = await startTestServer();
  const key = s.demo.keys.manage_products;
  for (const [k, body] of [
    ['a', { name: 'Widget', description: 'A fine widget', amount: 1000, included_tax_amount: 80, unit_of_measure: 'pc' }],
    ['b', { name: 'Gadget', description: 'A gadget', amount: 500, unit_of_measure: 'pc' }],
    ['c', { name: 'Gizmo', description: 'A gizmo', amount: 250, included_tax_amount: 20, unit_of_measure: 'pc' }],
  ] as const) {
    const r = await s.call('POST', `${base()}/products`, { key, body });
    assert.equal(r.status, 200, r.text);
    products[k] = r.body;
  }
  const partner = await s.call('POST', `${base()}/partners`, {
    key: s.demo.keys.manage_partners,
    body: {
      company: 'Acme <Corp> & Sons', first_name: 'Ann', last_name: 'Lee', email: 'ann@acme.test', line_1: '1 Main St', line_2: 'Suite 5',
      city: 'Austin', subdivision: 'TX', postal_code: '78701', country: 'US',
    },
  });
  partnerId = partner.body.id;
  const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Other Merchant' });
  const proc = await execute(createProcessor, s.p, contextFor(s.p, g.id), { type: 'transaction_level' });
  const otherKey = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_invoices', 'manage_products'] })).key;
  const otherProduct = await s.call('POST', `${base(g.id)}/products`, {
    key: otherKey, body: { name: 'Foreign', description: 'x', amount: 1, unit_of_measure: 'pc' },
  });
  other = { groupId: g.id, processorId: proc.id, invoices: otherKey, productId: otherProduct.body.id };
});
after(() => s.close());

type Line = InvoiceLine;

function createBody(patch: Record<string, unknown> = {}) {
  return {
    partner_id: partnerId,
    due_date: day(30),
    processor_id: s.demo.processor_id,
    card_enabled: true,
    ach_enabled: true,
    products: [{ product_id: products.a.id, quantity: 2 }, { product_id: products.b.id, quantity: 1 }],
    ...patch,
  };
}

async function createInvoice(patch: Record<string, unknown> = {}) {
  const r = await s.call('POST', `${base()}/invoices`, { key: s.demo.keys.manage_invoices, body: createBody(patch) });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** The update body that keeps every line of `inv` as it is. */
function keepAll(inv: { products: Line[]; due_date: string; processor_id: string; card_enabled: boolean; ach_enabled: boolean }) {
  return {
    due_date: inv.due_date.slice(0, 10),
    processor_id: inv.processor_id,
    card_enabled: inv.card_enabled,
    ach_enabled: inv.ach_enabled,
    products: inv.products.map(sendKept),
  };
}
const sendKept = (l: Line) => ({
  id: l.id, product_id: l.product_id, name: l.name, description: l.description, amount: l.amount,
  included_tax_amount: l.included_tax_amount, unit_of_measure: l.unit_of_measure, quantity: l.quantity,
});
const sendNew = (p: (typeof products)['a'], quantity: number) => ({
  product_id: p.id, name: p.name, description: p.description, amount: p.amount, included_tax_amount: p.included_tax_amount,
  unit_of_measure: 'pc', quantity,
});

const put = (id: string, body: unknown, key = s.demo.keys.manage_invoices) => s.call('PUT', `${base()}/invoices/${id}`, { key, body });

describe('create (extension)', () => {
  test('returns the Invoice with partner, copied lines, amount and a pending status', async () => {
    const inv = await createInvoice({ note: 'Thanks', external_id: 'PO-7' });
    assert.deepEqual(Object.keys(inv).sort(), [
      'ach_enabled', 'amount', 'card_enabled', 'created_at', 'due_date', 'external_id', 'group_id', 'id', 'invoice_number',
      'invoice_number_numeric', 'note', 'partner', 'processor_id', 'products', 'send_email', 'slug', 'status', 'updated_at', 'year',
    ]);
    assert.equal(inv.status, 'pending');
    assert.equal(inv.amount, 1000 * 2 + 500);
    assert.equal(inv.due_date, `${day(30)}T00:00:00.000Z`);
    assert.equal(inv.send_email, false);
    assert.equal(inv.partner.id, partnerId);
    assert.equal(inv.note, 'Thanks');
    assert.equal(inv.external_id, 'PO-7');
    assert.match(inv.slug, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(inv.products.length, 2);
    const [a, b] = inv.products as Line[];
    assert.deepEqual(
      { product_id: a!.product_id, name: a!.name, description: a!.description, amount: a!.amount, tax: a!.included_tax_amount, unit: a!.unit_of_measure, q: a!.quantity },
      { product_id: products.a.id, name: 'Widget', description: 'A fine widget', amount: 1000, tax: 80, unit: 'pc', q: 2 },
    );
    assert.equal(b!.included_tax_amount, 0);
    assert.notEqual(a!.id, b!.id);
  });

  test('numbering: INV-<year>-<n>, from 1 per group and year, unique under concurrency', async () => {
    const g = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Numbering Co' });
    const proc = await execute(createProcessor, s.p, contextFor(s.p, g.id), { type: 'transaction_level' });
    const key = (await execute(createKey, s.p, contextFor(s.p, g.id), { permissions: ['manage_invoices', 'manage_products', 'manage_partners'] })).key;
    const prod = (await s.call('POST', `${base(g.id)}/products`, { key, body: { name: 'P', description: 'p', amount: 100, unit_of_measure: 'pc' } })).body;
    const part = (await s.call('POST', `${base(g.id)}/partners`, {
      key, body: { company: 'C', email: 'c@c.test', line_1: 'l', city: 'c', subdivision: 'TX', postal_code: '1', country: 'US' },
    })).body;
    const body = { partner_id: part.id, due_date: day(10), processor_id: proc.id, card_enabled: true, ach_enabled: false, products: [{ product_id: prod.id, quantity: 1 }] };
    const replies = await Promise.all(Array.from({ length: 12 }, () => s.call('POST', `${base(g.id)}/invoices`, { key, body })));
    const year = String(s.p.clock.now().getUTCFullYear());
    const numbers = replies.map((r) => {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.year, year);
      assert.equal(r.body.invoice_number, `INV-${year}-${r.body.invoice_number_numeric.padStart(6, '0')}`);
      return Number(r.body.invoice_number_numeric);
    });
    assert.deepEqual(numbers.sort((x, y) => x - y), Array.from({ length: 12 }, (_, i) => i + 1));
    assert.equal(new Set(replies.map((r) => r.body.slug)).size, 12);
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['unknown partner', { partner_id: '00000000-0000-4000-8000-000000000000' }, 'partner_id'],
    ['processor of another group', {}, 'processor_id'],
    ['product of another group', {}, 'products.0.product_id'],
    ['quantity 0', { products: [{ product_id: 'A', quantity: 0 }] }, 'products.0.quantity'],
    ['no lines', { products: [] }, 'products'],
    ['due_date not a date', { due_date: '2030-02-30' }, 'due_date'],
    ['due_date with a time', { due_date: '2030-01-01T00:00:00Z' }, 'due_date'],
    ['card_enabled missing', { card_enabled: undefined }, 'card_enabled'],
    ['status cannot be set', { status: 'archived' }, 'status'],
    ['send_email not a boolean', { send_email: 'yes' }, 'send_email'],
  ];
  for (const [name, patch, path] of bad) {
    test(`400: ${name}`, async () => {
      const body: Record<string, unknown> = createBody(patch);
      if (name === 'processor of another group') body.processor_id = other.processorId;
      if (name === 'product of another group') body.products = [{ product_id: other.productId, quantity: 1 }];
      if (name === 'quantity 0') body.products = [{ product_id: products.a.id, quantity: 0 }];
      const r = await s.call('POST', `${base()}/invoices`, { key: s.demo.keys.manage_invoices, body });
      assert.equal(r.status, 400);
      assert.ok(paths(r).includes(path), JSON.stringify(r.body));
    });
  }

  test('400 names every bad reference at once', async () => {
    const r = await s.call('POST', `${base()}/invoices`, {
      key: s.demo.keys.manage_invoices,
      body: createBody({ partner_id: '00000000-0000-4000-8000-000000000000', processor_id: other.processorId, products: [{ product_id: other.productId, quantity: 1 }] }),
    });
    assert.deepEqual(paths(r).sort(), ['partner_id', 'processor_id', 'products.0.product_id']);
  });

  test('send_email: true queues the invoice e-mail with the page link; false queues nothing', async () => {
    const inv = await createInvoice({ send_email: true });
    assert.equal(inv.send_email, true);
    const rows = await s.p.db.all<{ kind: string; to_address: string; subject: string; body: string }>(
      'SELECT kind, to_address, subject, body FROM outbox WHERE related_id = ?', [inv.id],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.kind, 'invoice');
    assert.equal(rows[0]!.to_address, 'ann@acme.test');
    assert.match(rows[0]!.subject, new RegExp(inv.invoice_number));
    assert.ok(rows[0]!.body.includes(`${s.url}/invoices/${inv.slug}`), rows[0]!.body);
    assert.ok(rows[0]!.body.includes('$25.00'));
    const quiet = await createInvoice();
    assert.equal((await s.p.db.all('SELECT 1 FROM outbox WHERE related_id = ?', [quiet.id])).length, 0);
  });

  test('403 without Manage Invoices (View Invoices cannot create)', async () => {
    const r = await s.call('POST', `${base()}/invoices`, { key: s.demo.keys.view_invoices, body: createBody() });
    assert.equal(r.status, 403);
  });
});

describe('get and list (extensions)', () => {
  test('get with Manage or View Invoices; 404 unknown or another group', async () => {
    const inv = await createInvoice();
    for (const key of [s.demo.keys.manage_invoices, s.demo.keys.view_invoices]) {
      const r = await s.call('GET', `${base()}/invoices/${inv.id}`, { key });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, inv);
    }
    assert.equal((await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.manage_products })).status, 403);
    assert.equal((await s.call('GET', `${base()}/invoices/00000000-0000-4000-8000-000000000000`, { key: s.demo.keys.manage_invoices })).status, 404);
    assert.equal((await s.call('GET', `${base(other.groupId)}/invoices/${inv.id}`, { key: other.invoices })).status, 404);
  });

  test('list: newest first, partner filter, paging with total_count; bad query is 400', async () => {
    const first = await createInvoice();
    const second = await createInvoice();
    const r = await s.call('GET', `${base()}/invoices?limit=2`, { key: s.demo.keys.view_invoices });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.items.map((i: { id: string }) => i.id), [second.id, first.id]);
    const total = r.body.data.total_count;
    assert.ok(total >= 4, 'demo invoices are listed too');
    const page = await s.call('GET', `${base()}/invoices?limit=1&offset=1`, { key: s.demo.keys.view_invoices });
    assert.deepEqual(page.body.data.items.map((i: { id: string }) => i.id), [first.id]);
    assert.equal(page.body.data.total_count, total);
    const byPartner = await s.call('GET', `${base()}/invoices?partner_id=${partnerId}&limit=1000`, { key: s.demo.keys.view_invoices });
    assert.ok(byPartner.body.data.items.every((i: { partner: { id: string } }) => i.partner.id === partnerId));
    assert.ok(byPartner.body.data.total_count < total);
    for (const q of ['status=late', 'limit=0', 'partner_id=x', 'foo=1']) {
      assert.equal((await s.call('GET', `${base()}/invoices?${q}`, { key: s.demo.keys.view_invoices })).status, 400, q);
    }
  });

  test('demo invoices are pending', async () => {
    for (const id of s.demo.invoice_ids as string[]) {
      const r = await s.call('GET', `${base()}/invoices/${id}`, { key: s.demo.keys.view_invoices });
      assert.equal(r.body.status, 'pending');
      assert.ok(r.body.products.length > 0);
    }
  });
});

describe('Update Invoice', () => {
  test('keeps lines sent with id, attaches lines without id, detaches lines not sent; recomputes the amount', async () => {
    const inv = await createInvoice();
    const [la, lb] = inv.products as Line[];
    // The product's price changes after the line was attached: the kept line keeps its copy.
    const changed = await s.call('PUT', `${base()}/products/${products.a.id}`, {
      key: s.demo.keys.manage_products, body: { name: 'Widget', description: 'A fine widget', amount: 1200, included_tax_amount: 80, unit_of_measure: 'pc' },
    });
    assert.equal(changed.status, 200);
    await advanceClock(s.p, 1000);
    const r = await put(inv.id, {
      note: 'Updated', external_id: 'EXT-9', due_date: day(40), processor_id: s.demo.processor_id, card_enabled: false, ach_enabled: true,
      products: [{ ...sendKept(la!), quantity: 3 }, sendNew(products.c, 4)],
    });
    assert.equal(r.status, 200, r.text);
    const out = r.body;
    assert.equal(out.products.length, 2);
    const [ka, nc] = out.products as Line[];
    assert.equal(ka!.id, la!.id, 'kept line keeps its id');
    assert.equal(ka!.amount, 1000, 'kept line keeps its copied amount');
    assert.equal(ka!.quantity, 3);
    assert.equal(ka!.created_at, la!.created_at);
    assert.ok(ka!.updated_at > la!.updated_at, 'the quantity changed');
    assert.notEqual(nc!.id, lb!.id);
    assert.ok(![la!.id, lb!.id].includes(nc!.id), 'a new line gets a new id');
    assert.equal(nc!.product_id, products.c.id);
    assert.equal(nc!.name, 'Gizmo');
    assert.equal(nc!.quantity, 4);
    assert.equal(out.amount, 1000 * 3 + 250 * 4);
    assert.equal(out.note, 'Updated');
    assert.equal(out.external_id, 'EXT-9');
    assert.equal(out.due_date, `${day(40)}T00:00:00.000Z`);
    assert.equal(out.card_enabled, false);
    assert.equal(out.ach_enabled, true);
    assert.equal(out.partner.id, partnerId);
    assert.equal(out.invoice_number, inv.invoice_number, 'the number never changes');
    assert.ok(out.updated_at > inv.updated_at);
    const lines = await s.p.db.all<{ id: string }>('SELECT id FROM invoice_lines WHERE invoice_id = ?', [inv.id]);
    assert.deepEqual(lines.map((l) => l.id).sort(), [la!.id, nc!.id].sort(), 'line b is detached');
    const got = await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices });
    assert.deepEqual(got.body, out);
    // Put product a back for the other tests.
    await s.call('PUT', `${base()}/products/${products.a.id}`, {
      key: s.demo.keys.manage_products, body: { name: 'Widget', description: 'A fine widget', amount: 1000, included_tax_amount: 80, unit_of_measure: 'pc' },
    });
  });

  test('an unchanged kept line keeps its updated_at; the order of the request is kept; omitted note and external_id clear them', async () => {
    const inv = await createInvoice({ note: 'n', external_id: 'e' });
    const [la, lb] = inv.products as Line[];
    await advanceClock(s.p, 1000);
    const r = await put(inv.id, { ...keepAll(inv), products: [sendKept(lb!), sendKept(la!)] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.products, [lb, la]);
    assert.equal(r.body.amount, inv.amount);
    assert.equal(r.body.note, '');
    assert.equal(r.body.external_id, '');
  });

  test('every line can be replaced, and the same product can be attached twice', async () => {
    const inv = await createInvoice();
    const r = await put(inv.id, { ...keepAll(inv), products: [sendNew(products.b, 1), sendNew(products.b, 2)] });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.products.length, 2);
    assert.ok((inv.products as Line[]).every((l) => !r.body.products.some((n: Line) => n.id === l.id)));
    assert.equal(r.body.amount, 1500);
  });

  test('amounts of the copies may be digit strings when they equal the values', async () => {
    const inv = await createInvoice();
    const [la, lb] = inv.products as Line[];
    const r = await put(inv.id, {
      ...keepAll(inv),
      products: [{ ...sendKept(la!), amount: String(la!.amount), included_tax_amount: String(la!.included_tax_amount) }, sendKept(lb!)],
    });
    assert.equal(r.status, 200, r.text);
  });

  describe('differing line copies are rejected (400), naming the field', () => {
    const cases: Array<[string, (inv: { products: Line[] }) => unknown[], string]> = [
      ['kept line: amount', (inv) => [{ ...sendKept(inv.products[0]!), amount: 1 }], 'products.0.amount'],
      ['kept line: name', (inv) => [{ ...sendKept(inv.products[0]!), name: 'Cheaper widget' }], 'products.0.name'],
      ['kept line: description', (inv) => [{ ...sendKept(inv.products[0]!), description: 'x' }], 'products.0.description'],
      ['kept line: included_tax_amount', (inv) => [{ ...sendKept(inv.products[0]!), included_tax_amount: 0 }], 'products.0.included_tax_amount'],
      ['new line: amount differs from the product', () => [{ ...sendNew(products.c, 1), amount: 1 }], 'products.0.amount'],
      ['new line: name differs from the product', () => [{ ...sendNew(products.c, 1), name: 'Other' }], 'products.0.name'],
      ['kept line with another product_id', (inv) => [{ ...sendKept(inv.products[0]!), product_id: products.b.id }], 'products.0.product_id'],
      ['line id of another invoice', () => [{ ...sendNew(products.a, 1), id: '00000000-0000-4000-8000-000000000000' }], 'products.0.id'],
      ['the same line id twice', (inv) => [sendKept(inv.products[0]!), sendKept(inv.products[0]!)], 'products.1.id'],
      ['new line: unknown product', () => [{ ...sendNew(products.a, 1), product_id: '00000000-0000-4000-8000-000000000000' }], 'products.0.product_id'],
      ['new line: product of another group', () => [{ ...sendNew(products.a, 1), product_id: other.productId }], 'products.0.product_id'],
      ['quantity 0', (inv) => [{ ...sendKept(inv.products[0]!), quantity: 0 }], 'products.0.quantity'],
      ['unit_of_measure kg', (inv) => [{ ...sendKept(inv.products[0]!), unit_of_measure: 'kg' }], 'products.0.unit_of_measure'],
      ['a line field missing', (inv) => [{ ...sendKept(inv.products[0]!), name: undefined }], 'products.0.name'],
      ['an unknown line field', (inv) => [{ ...sendKept(inv.products[0]!), discount: 5 }], 'products.0.discount'],
      ['no lines', () => [], 'products'],
    ];
    for (const [name, lines, path] of cases) {
      test(name, async () => {
        const inv = await createInvoice();
        const r = await put(inv.id, { ...keepAll(inv), products: lines(inv) });
        assert.equal(r.status, 400);
        assert.equal(r.body.error.type, 'validation_error');
        assert.ok(paths(r).includes(path), JSON.stringify(r.body));
        const after = await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices });
        assert.deepEqual(after.body, inv, 'nothing changed');
      });
    }
  });

  describe('field rules (400)', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['due_date missing', { due_date: undefined }, 'due_date'],
      ['due_date 30 Feb', { due_date: '2030-02-30' }, 'due_date'],
      ['due_date 29 Feb of a common year', { due_date: '2031-02-29' }, 'due_date'],
      ['due_date as a timestamp', { due_date: '2030-01-01T00:00:00Z' }, 'due_date'],
      ['due_date unpadded', { due_date: '2030-1-5' }, 'due_date'],
      ['processor_id missing', { processor_id: undefined }, 'processor_id'],
      ['processor of another group', { processor_id: 'OTHER' }, 'processor_id'],
      ['card_enabled missing', { card_enabled: undefined }, 'card_enabled'],
      ['ach_enabled missing', { ach_enabled: undefined }, 'ach_enabled'],
      ['card_enabled as a string', { card_enabled: 'true' }, 'card_enabled'],
      ['products missing', { products: undefined }, 'products'],
      ['note over 5000', { note: 'x'.repeat(5001) }, 'note'],
      ['external_id over 255', { external_id: 'x'.repeat(256) }, 'external_id'],
      ['status cannot be set', { status: 'pending' }, 'status'],
      ['partner cannot be changed', { partner_id: 'x' }, 'partner_id'],
    ];
    for (const [name, patch, path] of cases) {
      test(name, async () => {
        const inv = await createInvoice();
        const body: Record<string, unknown> = { ...keepAll(inv), ...patch };
        if (patch.processor_id === 'OTHER') body.processor_id = other.processorId;
        for (const k of Object.keys(patch)) if (patch[k] === undefined) delete body[k];
        const r = await put(inv.id, body);
        assert.equal(r.status, 400);
        assert.ok(paths(r).includes(path), JSON.stringify(r.body));
      });
    }
    test('29 Feb of a leap year is a date', async () => {
      const inv = await createInvoice();
      const r = await put(inv.id, { ...keepAll(inv), due_date: '2032-02-29' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.due_date, '2032-02-29T00:00:00.000Z');
    });
  });

  test('404 for an unknown invoice and another group\'s invoice; 403 for View Invoices, other permissions and another group\'s key; 401 without a key', async () => {
    const inv = await createInvoice();
    const body = keepAll(inv);
    assert.equal((await put('00000000-0000-4000-8000-000000000000', body)).status, 404);
    assert.equal((await s.call('PUT', `${base(other.groupId)}/invoices/${inv.id}`, { key: other.invoices, body })).status, 404);
    assert.equal((await put(inv.id, body, s.demo.keys.view_invoices)).status, 403);
    assert.equal((await put(inv.id, body, s.demo.keys.manage_products)).status, 403);
    assert.equal((await put(inv.id, body, other.invoices)).status, 403);
    assert.equal((await s.call('PUT', `${base()}/invoices/${inv.id}`, { body })).status, 401);
  });
});

describe('Archive Invoice', () => {
  test('archives, returns the invoice; twice is harmless; an archived invoice cannot be updated', async () => {
    const inv = await createInvoice();
    await advanceClock(s.p, 1000);
    const first = await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.manage_invoices });
    assert.equal(first.status, 200);
    assert.equal(first.body.status, 'archived');
    assert.equal(first.body.id, inv.id);
    assert.deepEqual(first.body.products, inv.products);
    assert.deepEqual(first.body.partner, inv.partner);
    assert.ok(first.body.updated_at > inv.updated_at);
    await advanceClock(s.p, 1000);
    const second = await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.manage_invoices });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body, 'archiving again changes nothing');
    const update = await put(inv.id, keepAll(inv));
    assert.equal(update.status, 400);
    assert.equal(update.body.error.type, 'invalid_request');
    assert.match(update.body.error.message, /archived/);
    const got = await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices });
    assert.equal(got.body.status, 'archived');
    const listed = await s.call('GET', `${base()}/invoices?status=archived&limit=1000`, { key: s.demo.keys.view_invoices });
    assert.ok(listed.body.data.items.some((i: { id: string }) => i.id === inv.id));
  });

  test('404 unknown or another group; 403 for View Invoices and another group\'s key; 401 without a key', async () => {
    const inv = await createInvoice();
    assert.equal((await s.call('DELETE', `${base()}/invoices/00000000-0000-4000-8000-000000000000`, { key: s.demo.keys.manage_invoices })).status, 404);
    assert.equal((await s.call('DELETE', `${base(other.groupId)}/invoices/${inv.id}`, { key: other.invoices })).status, 404);
    assert.equal((await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices })).status, 403);
    assert.equal((await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: other.invoices })).status, 403);
    assert.equal((await s.call('DELETE', `${base()}/invoices/${inv.id}`)).status, 401);
    const still = await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices });
    assert.equal(still.body.status, 'pending');
  });
});

describe('Download PDF', () => {
  async function download(id: string, key: string) {
    const res = await fetch(`${s.url}${base()}/invoices/${id}/download/pdf`, { headers: { authorization: key } });
    return { res, buf: Buffer.from(await res.arrayBuffer()) };
  }

  test('with Manage Invoices or View Invoices: application/pdf, attachment <number>.pdf, number, lines, total and page URL in the text', async () => {
    const inv = await createInvoice({ products: [{ product_id: products.a.id, quantity: 3 }, { product_id: products.c.id, quantity: 2 }] });
    for (const key of [s.demo.keys.manage_invoices, s.demo.keys.view_invoices]) {
      const { res, buf } = await download(inv.id, key);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="${inv.invoice_number}.pdf"`);
      assert.equal(buf.subarray(0, 5).toString('latin1'), '%PDF-');
      const { text } = await pdfText(buf);
      for (const expected of [
        'Demo Merchant',
        `Invoice number ${inv.invoice_number}`,
        `Due date ${day(30)}`,
        'Status Pending',
        'Acme <Corp> & Sons',
        'Widget 3 $10.00 $30.00',
        'Gizmo 2 $2.50 $5.00',
        'Tax included $2.80',
        'Total $35.00',
        `${s.url}/invoices/${inv.slug}`,
      ]) {
        assert.ok(text.includes(expected), `missing "${expected}" in\n${text}`);
      }
    }
  });

  test('an archived invoice is marked ARCHIVED', async () => {
    const inv = await createInvoice();
    await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.manage_invoices });
    const { text } = await pdfText((await download(inv.id, s.demo.keys.view_invoices)).buf);
    assert.ok(text.includes('Status ARCHIVED'), text);
  });

  test('403 without an invoice permission or for another group; 404 unknown; 401 without a key', async () => {
    const inv = await createInvoice();
    for (const perm of ['manage_products', 'manage_partners', 'manage_transactions', 'view_transactions'] as const) {
      const { res } = await download(inv.id, s.demo.keys[perm]);
      assert.equal(res.status, 403, perm);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    }
    assert.equal((await download(inv.id, other.invoices)).res.status, 403);
    assert.equal((await download('00000000-0000-4000-8000-000000000000', s.demo.keys.view_invoices)).res.status, 404);
    assert.equal((await fetch(`${s.url}${base()}/invoices/${inv.id}/download/pdf`)).status, 401);
  });
});

describe('paying an invoice (public pay endpoint, extension)', () => {
  const pay = (slug: string, body: unknown, headers: Record<string, string> = {}) => s.call('POST', `/api/v1/invoices/${slug}/pay`, { body, headers });

  test('an approved card pays it: sale with source invoice and the invoice ids; the invoice is paid everywhere', async () => {
    const inv = await createInvoice({ external_id: 'PO-42' });
    const r = await pay(inv.slug, { token: 'tok_visa' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'paid');
    assert.equal(r.body.invoice_id, inv.id);
    assert.equal(r.body.invoice_number, inv.invoice_number);
    assert.equal(r.body.amount, inv.amount);
    assert.equal(r.body.payment_method, 'card');
    assert.equal(r.body.transaction_status, 'pending');
    assert.equal(r.body.response_code, '00');
    const tx = await s.p.db.get<Record<string, unknown>>('SELECT * FROM transactions WHERE id = ?', [r.body.transaction_id]);
    assert.ok(tx);
    assert.equal(tx.source, 'invoice');
    assert.equal(tx.transaction_type, 'sale');
    assert.equal(tx.invoice_id, inv.id);
    assert.equal(tx.invoice_number, inv.invoice_number);
    assert.equal(tx.invoice_external_id, 'PO-42');
    assert.equal(tx.requested_amount, inv.amount);
    assert.equal(tx.processor_id, inv.processor_id);
    assert.equal(tx.group_id, s.demo.group_id);
    const got = await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices });
    assert.equal(got.body.status, 'paid');
    const listed = await s.call('GET', `${base()}/invoices?status=paid&limit=1000`, { key: s.demo.keys.view_invoices });
    assert.ok(listed.body.data.items.some((i: { id: string }) => i.id === inv.id));
    const { text } = await pdfText(Buffer.from(await (await fetch(`${s.url}${base()}/invoices/${inv.id}/download/pdf`, { headers: { authorization: s.demo.keys.view_invoices } })).arrayBuffer()));
    assert.ok(text.includes('Status PAID'), text);
    // The receipt goes to the partner.
    const receipt = await s.p.db.get<{ to_address: string }>("SELECT to_address FROM outbox WHERE kind = 'receipt' AND related_id = ?", [r.body.transaction_id]);
    assert.equal(receipt?.to_address, 'ann@acme.test');

    // Paid is final for payment and update; archiving is still allowed.
    const again = await pay(inv.slug, { token: 'tok_visa' });
    assert.equal(again.status, 400);
    assert.equal(again.body.error.type, 'invalid_request');
    assert.match(again.body.error.message, /already paid/);
    const update = await put(inv.id, keepAll(inv));
    assert.equal(update.status, 400);
    assert.match(update.body.error.message, /paid/);
    const archived = await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.manage_invoices });
    assert.equal(archived.body.status, 'archived');
    const count = await s.p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM transactions WHERE invoice_id = ? AND status <> 'declined'", [inv.id]);
    assert.equal(count?.n, 1);
  });

  test('a declined card leaves the invoice payable and says why; the declined transaction is kept', async () => {
    const inv = await createInvoice();
    const r = await pay(inv.slug, { token: 'tok_visa_declined' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'pending');
    assert.equal(r.body.transaction_status, 'declined');
    assert.equal(r.body.response_code, '05');
    assert.match(r.body.response_text, /Declined/);
    const tx = await s.p.db.get<{ status: string; invoice_id: string }>('SELECT status, invoice_id FROM transactions WHERE id = ?', [r.body.transaction_id]);
    assert.deepEqual({ ...tx }, { status: 'declined', invoice_id: inv.id });
    assert.equal((await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices })).body.status, 'pending');
    const insufficient = await pay(inv.slug, { token: 'tok_insufficient_funds' });
    assert.equal(insufficient.body.response_code, '51');
    const ok = await pay(inv.slug, { token: 'tok_mastercard' });
    assert.equal(ok.body.status, 'paid');
  });

  test('a minted bank-account token pays an ACH invoice once; the token cannot be used again', async () => {
    const inv = await createInvoice({ card_enabled: false, ach_enabled: true });
    const tok = await s.call('POST', '/api/v1/tokens', { body: { bank_account: { routing_number: '110000000', account_number: '000123456789', account_type: 'checking' } } });
    assert.equal(tok.status, 200, tok.text);
    const card = await pay(inv.slug, { token: 'tok_visa' });
    assert.equal(card.status, 400);
    assert.match(card.body.error.message, /card payments are not enabled/);
    const r = await pay(inv.slug, { token: tok.body.token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.payment_method, 'ach');
    assert.equal(r.body.status, 'paid');
    const other = await createInvoice();
    const reused = await pay(other.slug, { token: tok.body.token });
    assert.equal(reused.status, 400);
    assert.match(reused.body.error.message, /already used/);
  });

  test('ACH is refused when only card is enabled; a refused payment does not use the token', async () => {
    const inv = await createInvoice({ card_enabled: true, ach_enabled: false });
    const tok = await s.call('POST', '/api/v1/tokens', { body: { bank_account: { routing_number: '110000000', account_number: '000123456789', account_type: 'checking' } } });
    const r = await pay(inv.slug, { token: tok.body.token });
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /ACH payments are not enabled/);
    const other = await createInvoice();
    assert.equal((await pay(other.slug, { token: tok.body.token })).body.status, 'paid');
  });

  test('archived → 400; unknown slug → 404; bad bodies → 400; no key needed', async () => {
    const inv = await createInvoice();
    await s.call('DELETE', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.manage_invoices });
    const archived = await pay(inv.slug, { token: 'tok_visa' });
    assert.equal(archived.status, 400);
    assert.match(archived.body.error.message, /archived/);
    assert.equal((await pay('AAAAAAAAAAAAAAAAAAAAAA', { token: 'tok_visa' })).status, 404);
    const fresh = await createInvoice();
    assert.deepEqual(paths(await pay(fresh.slug, {})), ['token']);
    assert.deepEqual(paths(await pay(fresh.slug, { token: 'tok_visa', amount: 1 })), ['amount']);
    assert.deepEqual(paths(await pay(fresh.slug, { token: 'tok_nope' })), ['token']);
    assert.equal((await s.call('GET', `${base()}/invoices/${fresh.id}`, { key: s.demo.keys.view_invoices })).body.status, 'pending');
  });

  test('Idempotency-Key: a retry replays the payment instead of charging twice', async () => {
    const inv = await createInvoice();
    const headers = { 'idempotency-key': `pay-${inv.id}` };
    const first = await pay(inv.slug, { token: 'tok_visa' }, headers);
    const second = await pay(inv.slug, { token: 'tok_visa' }, headers);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
  });

  test('concurrent payments: exactly one charges', async () => {
    const inv = await createInvoice();
    const replies = await Promise.all(Array.from({ length: 8 }, () => pay(inv.slug, { token: 'tok_visa' })));
    assert.equal(replies.filter((r) => r.status === 200 && r.body.status === 'paid').length, 1);
    assert.ok(replies.every((r) => r.status === 200 || r.status === 400));
    const n = await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE invoice_id = ?', [inv.id]);
    assert.equal(n?.n, 1);
  });
});

// These move the platform clock; they run last.
describe('past_due follows the platform clock', () => {
  test('pending through the due day, past_due from the next midnight UTC: API, list, PDF; a later due date makes it pending again', async () => {
    const now = s.p.clock.now();
    const due = now.toISOString().slice(0, 10);
    const inv = await createInvoice({ due_date: due });
    assert.equal(inv.status, 'pending');
    const status = async () => (await s.call('GET', `${base()}/invoices/${inv.id}`, { key: s.demo.keys.view_invoices })).body.status;
    await setClock(s.p, new Date(`${due}T23:59:59.000Z`));
    assert.equal(await status(), 'pending');
    await setClock(s.p, new Date(Date.parse(`${due}T00:00:00.000Z`) + 86_400_000));
    assert.equal(await status(), 'past_due');
    const pastDue = await s.call('GET', `${base()}/invoices?status=past_due&limit=1000`, { key: s.demo.keys.view_invoices });
    assert.ok(pastDue.body.data.items.some((i: { id: string; status: string }) => i.id === inv.id && i.status === 'past_due'));
    const pending = await s.call('GET', `${base()}/invoices?status=pending&limit=1000`, { key: s.demo.keys.view_invoices });
    assert.ok(!pending.body.data.items.some((i: { id: string }) => i.id === inv.id));
    assert.ok(pending.body.data.items.every((i: { status: string }) => i.status === 'pending'));
    const pdf = await fetch(`${s.url}${base()}/invoices/${inv.id}/download/pdf`, { headers: { authorization: s.demo.keys.view_invoices } });
    const { pages } = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    assert.ok(pages[0]!.includes('Status PAST DUE'), pages[0]);
    // Moving the due date out makes it pending again; the update itself answers with the new status.
    const later = await put(inv.id, { ...keepAll(inv), due_date: day(5) });
    assert.equal(later.body.status, 'pending');
    // A past-due invoice can still be paid.
    const again = await put(inv.id, { ...keepAll(inv), due_date: day(-3) });
    assert.equal(again.body.status, 'past_due');
    const paid = await s.call('POST', `/api/v1/invoices/${inv.slug}/pay`, { body: { token: 'tok_visa' } });
    assert.equal(paid.body.status, 'paid');
  });

  test('clock advance of 31 days makes the demo invoices past_due', async () => {
    await advanceClock(s.p, 31 * 86_400_000 + 86_400_000);
    for (const id of s.demo.invoice_ids as string[]) {
      const r = await s.call('GET', `${base()}/invoices/${id}`, { key: s.demo.keys.view_invoices });
      assert.equal(r.body.status, 'past_due');
    }
  });

  test('numbering restarts at 1 in a new year', async () => {
    const year = s.p.clock.now().getUTCFullYear() + 1;
    await setClock(s.p, new Date(`${year}-01-01T00:00:05.000Z`));
    const inv = await createInvoice({ due_date: `${year}-02-01` });
    assert.equal(inv.year, String(year));
    assert.equal(inv.invoice_number_numeric, '1');
    assert.equal(inv.invoice_number, `INV-${year}-000001`);
    const next = await createInvoice({ due_date: `${year}-02-01` });
    assert.equal(next.invoice_number, `INV-${year}-000002`);
  });
});
