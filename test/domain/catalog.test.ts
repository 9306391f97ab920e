import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  buildInvoiceLines,
  createInvoiceSchema,
  createPartnerSchema,
  createProductSchema,
  dueDateToTimestamp,
  formatInvoiceNumber,
  invoiceAmount,
  invoiceIncludedTax,
  invoiceNumbering,
  invoiceSchema,
  invoiceSlug,
  invoiceStatus,
  isCalendarDate,
  partnerListQuerySchema,
  partnerListSchema,
  pastDueCutoffDay,
  pastDueFrom,
  productSchema,
  reconcileInvoiceLines,
  updateInvoiceSchema,
  updateProductSchema,
  type Invoice,
  type InvoiceLine,
  type InvoiceStatus,
  type ProductValues,
  type UpdateInvoiceLineInput,
} from '../../src/domain/catalog.js';
import { AppError, fieldsFromZod } from '../../src/errors.js';
import { buildComponents, COMPONENT_PREFIX } from '../../src/http/openapi-components.js';

const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const TS = '2026-03-01T10:00:00.000Z';

/** Paths of every problem, or [] when the input is valid. */
function problemPaths(schema: z.ZodType, input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : fieldsFromZod(r.error).map((f) => f.path);
}
function problems(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  return r.success ? [] : fieldsFromZod(r.error);
}

type Case = [name: string, patch: Record<string, unknown>, expectedPath: string | null];

/** Apply a patch; a value of `undefined` removes the field. */
function patched(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

function runCases(schema: z.ZodType, base: Record<string, unknown>, cases: Case[]) {
  for (const [name, patch, expected] of cases) {
    it(name, () => {
      const paths = problemPaths(schema, patched(base, patch));
      if (expected === null) assert.deepEqual(paths, []);
      else assert.ok(paths.includes(expected), `expected a problem at ${expected}, got ${JSON.stringify(paths)}`);
    });
  }
}

// ------------------------------------------------------------------ products

const productBody = { name: 'Widget', description: 'A fine widget', amount: 1250, included_tax_amount: 100, unit_of_measure: 'pc' };

const productCases: Case[] = [
  ['accepts a full body', {}, null],
  ['included_tax_amount is optional', { included_tax_amount: undefined }, null],
  ['name at 100 characters', { name: 'n'.repeat(100) }, null],
  ['name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
  ['name empty', { name: '' }, 'name'],
  ['name missing', { name: undefined }, 'name'],
  ['name not a string', { name: 5 }, 'name'],
  ['description at 255 characters', { description: 'd'.repeat(255) }, null],
  ['description over 255 characters', { description: 'd'.repeat(256) }, 'description'],
  ['description missing', { description: undefined }, 'description'],
  ['description as a number (the listing says uint64, the example is text)', { description: 12 }, 'description'],
  ['amount 0', { amount: 0, included_tax_amount: 0 }, null],
  ['amount at the largest amount 99,999,999,999', { amount: 99_999_999_999 }, null],
  ['amount above the largest amount', { amount: 100_000_000_000 }, 'amount'],
  ['amount at 2^53-1 (above the largest amount)', { amount: Number.MAX_SAFE_INTEGER }, 'amount'],
  ['amount negative', { amount: -1 }, 'amount'],
  ['amount fractional', { amount: 12.5 }, 'amount'],
  ['amount as a string', { amount: '1250' }, 'amount'],
  ['amount missing', { amount: undefined }, 'amount'],
  ['included_tax_amount negative', { included_tax_amount: -1 }, 'included_tax_amount'],
  ['included_tax_amount equal to amount', { included_tax_amount: 1250 }, null],
  ['included_tax_amount above amount', { included_tax_amount: 1251 }, 'included_tax_amount'],
  ['unit_of_measure other than pc', { unit_of_measure: 'kg' }, 'unit_of_measure'],
  ['unit_of_measure missing', { unit_of_measure: undefined }, 'unit_of_measure'],
];

for (const [label, schema] of [
  ['updateProductSchema', updateProductSchema],
  ['createProductSchema', createProductSchema],
] as const) {
  describe(label, () => {
    runCases(schema, productBody, productCases);
    it('refuses an unknown field, naming it', () => {
      const found = problems(schema, { ...productBody, group_id: U(1) });
      assert.ok(found.some((p) => `${p.path} ${p.message}`.includes('group_id')), JSON.stringify(found));
    });
    it('says the rule in the message', () => {
      const [p] = problems(schema, { ...productBody, name: 'n'.repeat(101) });
      assert.equal(p?.message, 'must be at most 100 characters');
    });
  });
}

// ------------------------------------------------------------------ invoices

const updateLine = {
  id: U(10),
  product_id: U(1),
  name: 'Widget',
  description: 'A fine widget',
  amount: 1000,
  included_tax_amount: 80,
  unit_of_measure: 'pc',
  quantity: 2,
};
const updateBody = {
  note: 'Thanks',
  external_id: 'ext-1',
  due_date: '2026-04-30',
  processor_id: U(99),
  card_enabled: true,
  ach_enabled: false,
  products: [updateLine],
};
const withLine = (patch: Record<string, unknown>) => ({ products: [patched(updateLine, patch)] });

describe('updateInvoiceSchema', () => {
  runCases(updateInvoiceSchema, updateBody, [
    ['accepts a full body', {}, null],
    ['note and external_id are optional', { note: undefined, external_id: undefined }, null],
    ['note over 5000 characters', { note: 'x'.repeat(5001) }, 'note'],
    ['external_id over 255 characters', { external_id: 'x'.repeat(256) }, 'external_id'],
    ['due_date missing', { due_date: undefined }, 'due_date'],
    ['due_date 29 Feb of a leap year', { due_date: '2028-02-29' }, null],
    ['due_date 29 Feb of a common year', { due_date: '2026-02-29' }, 'due_date'],
    ['due_date 30 Feb', { due_date: '2026-02-30' }, 'due_date'],
    ['due_date month 13', { due_date: '2026-13-01' }, 'due_date'],
    ['due_date day 00', { due_date: '2026-01-00' }, 'due_date'],
    ['due_date without padding', { due_date: '2026-1-5' }, 'due_date'],
    ['due_date as a timestamp', { due_date: '2026-04-30T00:00:00Z' }, 'due_date'],
    ['due_date as a number', { due_date: 20260430 }, 'due_date'],
    ['processor_id missing', { processor_id: undefined }, 'processor_id'],
    ['processor_id empty', { processor_id: '' }, 'processor_id'],
    ['card_enabled missing', { card_enabled: undefined }, 'card_enabled'],
    ['card_enabled as a string', { card_enabled: 'true' }, 'card_enabled'],
    ['ach_enabled missing', { ach_enabled: undefined }, 'ach_enabled'],
    ['products missing', { products: undefined }, 'products'],
    ['products not an array', { products: {} }, 'products'],
    ['products empty', { products: [] }, 'products'],
    ['products at 100 lines', { products: Array.from({ length: 100 }, () => updateLine) }, null],
    ['products over 100 lines', { products: Array.from({ length: 101 }, () => updateLine) }, 'products'],
    ['send_email is not part of an update', { send_email: true }, 'send_email'],
    ['line id is optional (a new line)', withLine({ id: undefined }), null],
    ['line id not a UUID', withLine({ id: 'line-1' }), 'products.0.id'],
    ['line product_id missing', withLine({ product_id: undefined }), 'products.0.product_id'],
    ['line product_id not a UUID', withLine({ product_id: 'abc' }), 'products.0.product_id'],
    ['line name missing', withLine({ name: undefined }), 'products.0.name'],
    ['line name over 100', withLine({ name: 'n'.repeat(101) }), 'products.0.name'],
    ['line description missing', withLine({ description: undefined }), 'products.0.description'],
    ['line description over 255', withLine({ description: 'd'.repeat(256) }), 'products.0.description'],
    ['line amount as a digit string', withLine({ amount: '1000' }), null],
    ['line amount as a decimal string', withLine({ amount: '10.00' }), 'products.0.amount'],
    ['line amount negative', withLine({ amount: -5 }), 'products.0.amount'],
    ['line amount missing', withLine({ amount: undefined }), 'products.0.amount'],
    ['line included_tax_amount as a digit string', withLine({ included_tax_amount: '80' }), null],
    ['line included_tax_amount missing', withLine({ included_tax_amount: undefined }), 'products.0.included_tax_amount'],
    ['line unit_of_measure other than pc', withLine({ unit_of_measure: 'box' }), 'products.0.unit_of_measure'],
    ['line unit_of_measure missing', withLine({ unit_of_measure: undefined }), 'products.0.unit_of_measure'],
    ['line quantity 1', withLine({ quantity: 1 }), null],
    ['line quantity 0', withLine({ quantity: 0 }), 'products.0.quantity'],
    ['line quantity fractional', withLine({ quantity: 1.5 }), 'products.0.quantity'],
    ['line quantity as a string', withLine({ quantity: '2' }), 'products.0.quantity'],
    ['line quantity missing', withLine({ quantity: undefined }), 'products.0.quantity'],
  ]);

  it('turns digit-string amounts into numbers', () => {
    const out = updateInvoiceSchema.parse({ ...updateBody, products: [{ ...updateLine, amount: '1000', included_tax_amount: '80' }] });
    assert.equal(out.products[0]!.amount, 1000);
    assert.equal(out.products[0]!.included_tax_amount, 80);
  });

  it('names the index of the bad line and says the rule', () => {
    const found = problems(updateInvoiceSchema, { ...updateBody, products: [updateLine, { ...updateLine, quantity: 0 }] });
    assert.deepEqual(found, [{ path: 'products.1.quantity', message: 'must be at least 1' }]);
  });

  it('refuses a bad due date with one message', () => {
    assert.deepEqual(problems(updateInvoiceSchema, { ...updateBody, due_date: '2026-02-30' }), [
      { path: 'due_date', message: '"2026-02-30" is not a real date: 2026-02 has 28 days' },
    ]);
    assert.deepEqual(problems(updateInvoiceSchema, { ...updateBody, due_date: '30/02/2026' }), [
      { path: 'due_date', message: 'must be a date YYYY-MM-DD' },
    ]);
  });
});

describe('isCalendarDate', () => {
  for (const [s, ok] of [
    ['2026-01-31', true],
    ['2026-04-31', false],
    ['2024-02-29', true],
    ['2100-02-29', false],
    ['2000-02-29', true],
    ['2026-00-10', false],
    ['26-01-01', false],
  ] as const) {
    it(`${s} → ${ok}`, () => assert.equal(isCalendarDate(s), ok));
  }
});

const createBody = {
  partner_id: U(5),
  due_date: '2026-04-30',
  processor_id: U(99),
  card_enabled: true,
  ach_enabled: true,
  products: [{ product_id: U(1), quantity: 3 }],
};

describe('createInvoiceSchema', () => {
  runCases(createInvoiceSchema, createBody, [
    ['accepts the minimal body', {}, null],
    ['accepts note, external_id and send_email', { note: 'n', external_id: 'e', send_email: true }, null],
    ['partner_id missing', { partner_id: undefined }, 'partner_id'],
    ['partner_id not a UUID', { partner_id: 'p1' }, 'partner_id'],
    ['due_date not a real date', { due_date: '2026-02-30' }, 'due_date'],
    ['processor_id missing', { processor_id: undefined }, 'processor_id'],
    ['card_enabled missing', { card_enabled: undefined }, 'card_enabled'],
    ['ach_enabled missing', { ach_enabled: undefined }, 'ach_enabled'],
    ['send_email not a boolean', { send_email: 'yes' }, 'send_email'],
    ['products empty', { products: [] }, 'products'],
    ['line quantity 0', { products: [{ product_id: U(1), quantity: 0 }] }, 'products.0.quantity'],
    ['line product_id missing', { products: [{ quantity: 1 }] }, 'products.0.product_id'],
    ['line copies are not accepted on create', { products: [{ product_id: U(1), quantity: 1, amount: 5 }] }, 'products.0.amount'],
    ['status cannot be set', { status: 'archived' }, 'status'],
  ]);
});

// ------------------------------------------------------------------ partners

const partnerBody = {
  company: 'Acme Corp',
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@acme.test',
  line_1: '1 Main St',
  line_2: 'Suite 5',
  city: 'Austin',
  country: 'US',
  subdivision: 'TX',
  postal_code: '78701',
};

describe('createPartnerSchema', () => {
  runCases(createPartnerSchema, partnerBody, [
    ['accepts a full body', {}, null],
    ['names and line_2 may be absent', { first_name: undefined, last_name: undefined, line_2: undefined }, null],
    ['names may be empty', { first_name: '', last_name: '' }, null],
    ['company missing', { company: undefined }, 'company'],
    ['company over 100', { company: 'c'.repeat(101) }, 'company'],
    ['first_name over 64', { first_name: 'f'.repeat(65) }, 'first_name'],
    ['last_name over 64', { last_name: 'l'.repeat(65) }, 'last_name'],
    ['email missing', { email: undefined }, 'email'],
    ['email malformed', { email: 'ann-at-acme' }, 'email'],
    ['email over 100', { email: `${'a'.repeat(95)}@x.com` }, 'email'],
    ['line_1 missing', { line_1: undefined }, 'line_1'],
    ['line_1 over 60', { line_1: 'a'.repeat(61) }, 'line_1'],
    ['line_2 over 32', { line_2: 'a'.repeat(33) }, 'line_2'],
    ['city missing', { city: undefined }, 'city'],
    ['city over 24', { city: 'c'.repeat(25) }, 'city'],
    ['country of 3 characters', { country: 'USA' }, 'country'],
    ['subdivision of 1 character', { subdivision: 'T' }, 'subdivision'],
    ['subdivision of 4 characters', { subdivision: 'TEXA' }, 'subdivision'],
    ['postal_code missing', { postal_code: undefined }, 'postal_code'],
    ['postal_code over 10', { postal_code: '12345678901' }, 'postal_code'],
    ['postal_code with a leading hyphen', { postal_code: '-1234' }, 'postal_code'],
    ['postal_code of another country', { country: 'CA', subdivision: 'ON', postal_code: 'K1A 0B1' }, null],
    ['unknown field', { group_id: U(1) }, 'group_id'],
  ]);

  it('fills absent names and line_2 with empty strings', () => {
    const out = createPartnerSchema.parse({ ...partnerBody, first_name: undefined, last_name: undefined, line_2: undefined });
    assert.equal(out.first_name, '');
    assert.equal(out.last_name, '');
    assert.equal(out.line_2, '');
  });
});

describe('partnerListQuerySchema', () => {
  const table: Array<[string, Record<string, unknown>, { limit: number; offset: number; name?: string } | string]> = [
    ['defaults', {}, { limit: 50, offset: 0 }],
    ['string values', { limit: '10', offset: '20', name: 'acme' }, { limit: 10, offset: 20, name: 'acme' }],
    ['limit at 1000', { limit: '1000' }, { limit: 1000, offset: 0 }],
    ['limit at 1', { limit: '1' }, { limit: 1, offset: 0 }],
    ['an empty name filters nothing', { name: '' }, { limit: 50, offset: 0 }],
    ['name is trimmed', { name: '  acme ' }, { limit: 50, offset: 0, name: 'acme' }],
    ['limit over 1000', { limit: '1001' }, 'limit'],
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit not a number', { limit: 'ten' }, 'limit'],
    ['limit negative', { limit: '-1' }, 'limit'],
    ['limit repeated', { limit: ['1', '2'] }, 'limit'],
    ['offset negative', { offset: '-5' }, 'offset'],
    ['offset fractional', { offset: '1.5' }, 'offset'],
    ['name over 100', { name: 'n'.repeat(101) }, 'name'],
    ['unknown parameter', { page: '2' }, 'page'],
  ];
  for (const [name, query, expected] of table) {
    it(name, () => {
      if (typeof expected === 'string') {
        assert.ok(problemPaths(partnerListQuerySchema, query).includes(expected));
      } else {
        const out = partnerListQuerySchema.parse(query);
        assert.deepEqual({ ...out, ...(out.name === undefined ? { name: undefined } : {}) }, { name: undefined, ...expected });
      }
    });
  }
});

// ------------------------------------------------------------------ amount and status

describe('invoiceAmount', () => {
  const line = (amount: number, quantity: number, included_tax_amount = 0) => ({ amount, quantity, included_tax_amount });
  for (const [name, lines, expected] of [
    ['no lines', [], 0],
    ['one line', [line(1250, 1)], 1250],
    ['amount × quantity', [line(1250, 3)], 3750],
    ['several lines', [line(1000, 2), line(499, 3), line(1, 1)], 3498],
    ['included tax is not added on top', [line(1000, 2, 200)], 2000],
  ] as const) {
    it(name, () => assert.equal(invoiceAmount(lines), expected));
  }
  it('included tax sums tax × quantity', () => {
    assert.equal(invoiceIncludedTax([line(1000, 2, 80), line(500, 3, 10)]), 190);
  });
});

describe('invoiceStatus and the due date boundary', () => {
  const table: Array<[InvoiceStatus, string, string, InvoiceStatus]> = [
    ['pending', '2026-03-10', '2026-03-09T12:00:00.000Z', 'pending'],
    ['pending', '2026-03-10', '2026-03-10T00:00:00.000Z', 'pending'],
    ['pending', '2026-03-10', '2026-03-10T23:59:59.999Z', 'pending'],
    ['pending', '2026-03-10', '2026-03-11T00:00:00.000Z', 'past_due'],
    ['pending', '2026-03-10', '2027-01-01T00:00:00.000Z', 'past_due'],
    ['pending', '2026-03-10T00:00:00.000Z', '2026-03-10T23:59:59.999Z', 'pending'],
    ['pending', '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z', 'past_due'],
    ['archived', '2026-03-10', '2027-01-01T00:00:00.000Z', 'archived'],
    ['archived', '2026-03-10', '2026-03-01T00:00:00.000Z', 'archived'],
    ['past_due', '2026-03-10', '2026-03-12T00:00:00.000Z', 'past_due'],
    ['past_due', '2026-04-30', '2026-03-12T00:00:00.000Z', 'pending'],
    ['paid', '2026-03-10', '2027-01-01T00:00:00.000Z', 'paid'],
    ['paid', '2026-03-10', '2026-03-01T00:00:00.000Z', 'paid'],
  ];
  for (const [stored, due, now, expected] of table) {
    it(`${stored}, due ${due}, at ${now} → ${expected}`, () => assert.equal(invoiceStatus(stored, due, now), expected));
  }
  it('the store cutoff day agrees with isPastDue at the boundary', () => {
    for (const [due, now] of [
      ['2026-03-10', '2026-03-10T23:59:59.999Z'],
      ['2026-03-10', '2026-03-11T00:00:00.000Z'],
      ['2026-12-31', '2027-01-01T00:00:00.000Z'],
      ['2026-03-10', '2026-03-09T00:00:00.000Z'],
    ] as const) {
      assert.equal(due < pastDueCutoffDay(now), invoiceStatus('pending', due, now) === 'past_due', `${due} at ${now}`);
    }
  });
  it('past due from the next midnight UTC, across month, year and leap day', () => {
    assert.equal(pastDueFrom('2026-03-10'), '2026-03-11T00:00:00.000Z');
    assert.equal(pastDueFrom('2026-12-31'), '2027-01-01T00:00:00.000Z');
    assert.equal(pastDueFrom('2028-02-28'), '2028-02-29T00:00:00.000Z');
  });
  it('the response form of a due date is midnight UTC', () => {
    assert.equal(dueDateToTimestamp('2026-04-30'), '2026-04-30T00:00:00.000Z');
    assert.equal(dueDateToTimestamp('2026-04-30T00:00:00.000Z'), '2026-04-30T00:00:00.000Z');
  });
});

// ------------------------------------------------------------------ lines

const PA = U(1);
const PB = U(2);
const PC = U(3);
const products = new Map<string, ProductValues>([
  // Product A's price changed after line L1 was attached at 1000.
  [PA, { id: PA, name: 'Widget', description: 'A fine widget', amount: 1200, included_tax_amount: 80, unit_of_measure: 'pc' }],
  [PB, { id: PB, name: 'Gadget', description: 'A gadget', amount: 500, included_tax_amount: 0, unit_of_measure: 'pc' }],
  [PC, { id: PC, name: 'Gizmo', description: 'A gizmo', amount: 250, included_tax_amount: 20, unit_of_measure: 'pc' }],
]);
const L1: InvoiceLine = {
  id: U(10), product_id: PA, name: 'Widget', description: 'A fine widget', amount: 1000, included_tax_amount: 80,
  unit_of_measure: 'pc', quantity: 2, created_at: TS, updated_at: TS,
};
const L2: InvoiceLine = {
  id: U(11), product_id: PB, name: 'Gadget', description: 'A gadget', amount: 500, included_tax_amount: 0,
  unit_of_measure: 'pc', quantity: 1, created_at: TS, updated_at: TS,
};
const existing = [L1, L2];

const sendKept = (l: InvoiceLine, patch: Partial<UpdateInvoiceLineInput> = {}): UpdateInvoiceLineInput => ({
  id: l.id, product_id: l.product_id, name: l.name, description: l.description, amount: l.amount,
  included_tax_amount: l.included_tax_amount, unit_of_measure: 'pc', quantity: l.quantity, ...patch,
});
const sendNew = (p: ProductValues, quantity: number, patch: Partial<UpdateInvoiceLineInput> = {}): UpdateInvoiceLineInput => ({
  product_id: p.id, name: p.name, description: p.description, amount: p.amount,
  included_tax_amount: p.included_tax_amount, unit_of_measure: 'pc', quantity, ...patch,
});

function fieldsOf(fn: () => unknown): Array<{ path: string; message: string }> {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AppError);
    assert.equal(e.status, 400);
    assert.equal(e.type, 'validation_error');
    return e.fields ?? [];
  }
  assert.fail('expected a validation error');
}

describe('reconcileInvoiceLines', () => {
  it('keeps lines sent with id, adds lines without id, detaches lines not sent', () => {
    const r = reconcileInvoiceLines(existing, [sendKept(L1, { quantity: 3 }), sendNew(products.get(PC)!, 4)], products);
    assert.deepEqual(r.keep, [{ line: L1, quantity: 3, changed: true }]);
    assert.deepEqual(r.add, [
      { product_id: PC, name: 'Gizmo', description: 'A gizmo', amount: 250, included_tax_amount: 20, unit_of_measure: 'pc', quantity: 4 },
    ]);
    assert.deepEqual(r.detach, [L2]);
    assert.deepEqual(r.lines.map((l) => [l.id, l.product_id, l.quantity]), [[L1.id, PA, 3], [undefined, PC, 4]]);
  });

  it('a kept line keeps the values it was attached with, even after the product changed', () => {
    const r = reconcileInvoiceLines(existing, [sendKept(L1), sendKept(L2)], products);
    assert.equal(r.lines[0]!.amount, 1000);
    assert.deepEqual(r.keep.map((k) => k.changed), [false, false]);
    assert.deepEqual(r.detach, []);
    assert.equal(r.amount, 1000 * 2 + 500);
  });

  it('recomputes the amount from the resulting lines', () => {
    const r = reconcileInvoiceLines(existing, [sendKept(L2, { quantity: 4 }), sendNew(products.get(PA)!, 1), sendNew(products.get(PA)!, 2)], products);
    assert.equal(r.amount, 500 * 4 + 1200 * 1 + 1200 * 2);
    assert.deepEqual(r.detach, [L1]);
    assert.equal(r.add.length, 2, 'the same product may be attached twice as separate lines');
  });

  it('detaches every line when none is kept', () => {
    const r = reconcileInvoiceLines(existing, [sendNew(products.get(PB)!, 1)], products);
    assert.deepEqual(r.detach, existing);
    assert.equal(r.amount, 500);
  });

  const refusals: Array<[string, UpdateInvoiceLineInput[], string]> = [
    ['an id that is not a line of this invoice', [sendKept({ ...L1, id: U(77) })], 'products.0.id'],
    ['the same id twice', [sendKept(L1), sendKept(L1)], 'products.1.id'],
    ['a kept line with another product_id', [sendKept(L1, { product_id: PB })], 'products.0.product_id'],
    ['a new line of an unknown product', [sendKept(L1), sendNew({ ...products.get(PA)!, id: U(88) }, 1)], 'products.1.product_id'],
    ['a kept line sent with the product\'s new price', [sendKept(L1, { amount: 1200 })], 'products.0.amount'],
    ['a kept line with another name', [sendKept(L1, { name: 'Widget v2' })], 'products.0.name'],
    ['a kept line with another description', [sendKept(L1, { description: 'x' })], 'products.0.description'],
    ['a kept line with another tax', [sendKept(L1, { included_tax_amount: 0 })], 'products.0.included_tax_amount'],
    ['a new line with another amount', [sendNew(products.get(PB)!, 1, { amount: 1 })], 'products.0.amount'],
    ['a new line with another name', [sendNew(products.get(PB)!, 1, { name: 'Cheap gadget' })], 'products.0.name'],
    ['a new line with another tax', [sendNew(products.get(PC)!, 1, { included_tax_amount: 0 })], 'products.0.included_tax_amount'],
  ];
  for (const [name, lines, path] of refusals) {
    it(`refuses ${name} (${path})`, () => {
      const fields = fieldsOf(() => reconcileInvoiceLines(existing, lines, products));
      assert.ok(fields.some((f) => f.path === path), JSON.stringify(fields));
    });
  }

  it('explains that product values cannot be changed', () => {
    const [f] = fieldsOf(() => reconcileInvoiceLines(existing, [sendKept(L1, { amount: 1200 })], products));
    assert.equal(f?.path, 'products.0.amount');
    assert.match(f!.message, /must equal the attached line's value 1000/);
  });

  it('reports every problem at once', () => {
    const fields = fieldsOf(() =>
      reconcileInvoiceLines(existing, [sendKept(L1, { name: 'x', amount: 1 }), sendNew({ ...products.get(PA)!, id: U(88) }, 1)], products),
    );
    assert.deepEqual(fields.map((f) => f.path).sort(), ['products.0.amount', 'products.0.name', 'products.1.product_id']);
  });

  it('accepts amounts sent as digit strings once parsed', () => {
    const body = updateInvoiceSchema.parse({
      ...updateBody,
      products: [{ ...sendKept(L1), amount: '1000', included_tax_amount: '80' }],
    });
    const r = reconcileInvoiceLines(existing, body.products, products);
    assert.equal(r.amount, 2000);
  });

  it('refuses a total above 2^53-1 cents', () => {
    const big: ProductValues = { id: U(4), name: 'Big', description: 'b', amount: 2 ** 52, included_tax_amount: 0, unit_of_measure: 'pc' };
    const fields = fieldsOf(() => reconcileInvoiceLines([], [sendNew(big, 3)], new Map([[big.id, big]])));
    assert.deepEqual(fields.map((f) => f.path), ['products']);
  });
});

describe('buildInvoiceLines (create)', () => {
  it('copies the product values and sums the amount', () => {
    const r = buildInvoiceLines([{ product_id: PA, quantity: 2 }, { product_id: PC, quantity: 1 }], products);
    assert.deepEqual(r.lines[0], {
      product_id: PA, name: 'Widget', description: 'A fine widget', amount: 1200, included_tax_amount: 80, unit_of_measure: 'pc', quantity: 2,
    });
    assert.equal(r.amount, 2400 + 250);
  });
  it('refuses an unknown product, naming the line', () => {
    const fields = fieldsOf(() => buildInvoiceLines([{ product_id: PA, quantity: 1 }, { product_id: U(88), quantity: 1 }], products));
    assert.deepEqual(fields.map((f) => f.path), ['products.1.product_id']);
  });
});

// ------------------------------------------------------------------ numbering and slug

describe('invoice numbering', () => {
  for (const [year, n, expected] of [
    [2026, 1, 'INV-2026-000001'],
    [2026, 42, 'INV-2026-000042'],
    [2027, 999999, 'INV-2027-999999'],
    [2027, 1234567, 'INV-2027-1234567'],
  ] as const) {
    it(`${year} #${n} → ${expected}`, () => assert.equal(formatInvoiceNumber(year, n), expected));
  }
  it('numeric and year fields are decimal strings', () => {
    assert.deepEqual(invoiceNumbering(2026, 42), { invoice_number: 'INV-2026-000042', invoice_number_numeric: '42', year: '2026' });
  });
  it('refuses a sequence number below 1 or a non-integer', () => {
    assert.throws(() => formatInvoiceNumber(2026, 0));
    assert.throws(() => formatInvoiceNumber(2026, 1.5));
    assert.throws(() => formatInvoiceNumber(26, 1));
  });
});

describe('invoiceSlug', () => {
  it('is the base64url form of 16 random bytes', () => {
    assert.equal(invoiceSlug(new Uint8Array(16)), 'AAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(invoiceSlug(new Uint8Array(16).fill(255)), '_____________________w');
  });
  it('is URL-safe, 22 characters, and differs for different bytes', () => {
    const a = invoiceSlug(Uint8Array.from({ length: 16 }, (_, i) => i * 17));
    const b = invoiceSlug(Uint8Array.from({ length: 16 }, (_, i) => i * 13));
    assert.match(a, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a, b);
  });
  it('refuses fewer than 16 bytes', () => assert.throws(() => invoiceSlug(new Uint8Array(8))));
});

// ------------------------------------------------------------------ response schemas

describe('response schemas', () => {
  const partner = { id: U(5), group_id: U(9), ...partnerBody, created_at: TS, updated_at: TS };
  const invoice: Invoice = {
    id: U(20), invoice_number: 'INV-2026-000042', group_id: U(9), slug: 'AAAAAAAAAAAAAAAAAAAAAA', invoice_number_numeric: '42',
    year: '2026', note: '', external_id: '', due_date: '2026-04-30T00:00:00.000Z', send_email: false, processor_id: U(99),
    card_enabled: true, ach_enabled: false, partner, products: [L1, L2], amount: 2500, status: 'pending', created_at: TS, updated_at: TS,
  };

  it('an invoice, a product and a partner list parse', () => {
    assert.deepEqual(invoiceSchema.parse(invoice), invoice);
    assert.ok(productSchema.safeParse({ ...products.get(PA)!, group_id: U(9), created_at: TS, updated_at: TS }).success);
    assert.ok(partnerListSchema.safeParse({ data: { items: [partner], total_count: 1 } }).success);
  });

  it('an unknown status does not parse', () => {
    assert.equal(invoiceSchema.safeParse({ ...invoice, status: 'draft' }).success, false);
    assert.equal(invoiceSchema.safeParse({ ...invoice, status: 'paid' }).success, true);
  });

  it('every schema converts to JSON Schema for the OpenAPI document', () => {
    // As the document emits them: named components, responses as output, requests as input.
    const component = (schema: z.ZodType, io: 'input' | 'output') => {
      const { schemas, refs } = buildComponents([{ schema, io, fallbackName: 'Unnamed' }]);
      return schemas[refs[0]!.slice(COMPONENT_PREFIX.length)] as { type?: string; required?: string[] };
    };
    for (const s of [productSchema, invoiceSchema, partnerListSchema]) assert.equal(component(s, 'output').type, 'object');
    for (const s of [updateProductSchema, createProductSchema, updateInvoiceSchema, createInvoiceSchema, createPartnerSchema]) {
      const json = component(s, 'input');
      assert.ok(Array.isArray(json.required) && json.required.length > 0);
    }
    const query = z.toJSONSchema(partnerListQuerySchema, { io: 'input' }) as { properties?: Record<string, unknown> };
    assert.deepEqual(Object.keys(query.properties ?? {}).sort(), ['limit', 'name', 'offset']);
  });
});
