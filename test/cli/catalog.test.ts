// payctl product / partner / invoice, spawned as the real binary over a temporary demo
// database: --json prints the API objects, lists print tables, errors are one line.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, runCliJson, type CliResult, assertUsageError, assertUserError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { invoiceListSchema, invoiceSchema, partnerListSchema, partnerSchema, productListSchema, productSchema } from '../../src/domain/catalog.js';
import { pdfText } from '../helpers/pdf-text.js';

let db: string;
let demo: { group_id: string; processor_id: string; product_ids: string[]; partner_ids: string[]; invoice_ids: string[] };
let g: string;

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  g = demo.group_id;
});

const cli = (args: string[], input?: string) => runCli(args, { db, input });
const json = <T = any>(args: string[]) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any


test('init --demo adds product_ids, partner_ids and invoice_ids arrays', () => {
  for (const k of ['product_ids', 'partner_ids', 'invoice_ids'] as const) {
    assert.ok(Array.isArray(demo[k]) && demo[k].length > 0, k);
  }
});

test('product create / get / update / list', async () => {
  const p = await json(['product', 'create', '--group', g, '--name', 'Teapot', '--description', 'Cast iron', '--amount', '45.50', '--tax', '3.50']);
  assert.ok(productSchema.safeParse(p).success);
  assert.equal(p.amount, 4550);
  assert.equal(p.included_tax_amount, 350);
  assert.equal(p.unit_of_measure, 'pc');

  const got = await json(['product', 'get', p.id, '--group', g]);
  assert.deepEqual(got, p);
  const human = await cli(['product', 'get', p.id, '--group', g]);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /amount\s+\$45\.50 \(4550 cents\)/);

  // Flags change only those fields; the rest is kept.
  const updated = await json(['product', 'update', p.id, '--group', g, '--amount-cents', '4800']);
  assert.equal(updated.amount, 4800);
  assert.equal(updated.name, 'Teapot');
  assert.equal(updated.included_tax_amount, 350);

  // --file replaces the whole product (a missing included_tax_amount means 0).
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-')), 'p.json');
  writeFileSync(file, JSON.stringify({ name: 'Teapot XL', description: 'Bigger', amount: 6000, unit_of_measure: 'pc' }));
  const replaced = await json(['product', 'update', p.id, '--group', g, '--file', file]);
  assert.equal(replaced.name, 'Teapot XL');
  assert.equal(replaced.included_tax_amount, 0);

  const list = await json(['product', 'list', '--group', g, '--name', 'teapot']);
  assert.ok(productListSchema.safeParse(list).success);
  assert.equal(list.data.total_count, 1);
  const table = await cli(['product', 'list', '--group', g]);
  assert.equal(table.code, 0);
  assert.match(table.stdout, /Teapot XL .*\$60\.00/);
  assert.match(table.stdout, /Espresso beans 1 kg/);
  assert.match(table.stdout, /Showing 1–4 of 4\./);
});

test('product errors: a rule broken is one line naming the field; unknown product is not found', async () => {
  assertUserError(await cli(['product', 'create', '--group', g, '--name', 'x'.repeat(101), '--description', 'd', '--amount', '1']), /name: must be at most 100 characters/);
  assertUsageError(await cli(['product', 'create', '--group', g, '--name', 'x', '--description', 'd', '--amount', '1', '--unit', 'kg']), /Expected --unit=kg to be one of: pc/);
  assertUsageError(await cli(['product', 'create', '--group', g, '--name', 'x', '--description', 'd', '--amount', '1.234']), /--amount[^]*"1\.234" is not an amount of money/);
  assertUsageError(await cli(['product', 'create', '--group', g, '--name', 'x', '--description', 'd', '--amount', '1', '--amount-cents', '100']), /--amount-cents=100 cannot also be provided when using --amount/);
  assertUserError(await cli(['product', 'get', '00000000-0000-4000-8000-000000000000', '--group', g]), /product not found/);
  const j = await cli(['product', 'get', '00000000-0000-4000-8000-000000000000', '--group', g, '--json']);
  assert.equal(j.code, 1);
  assert.equal(JSON.parse(j.stdout).error.type, 'not_found');
});

test('partner create / list with --name, --limit, --offset and the total', async () => {
  const created = [];
  for (const [company, first] of [['Harbor Foods', 'Edsger'], ['Harbor Lights', 'Barbara'], ['Zeta LLC', 'Harbor']]) {
    created.push(await json(['partner', 'create', '--group', g, '--company', company!, '--first-name', first!, '--last-name', 'X', '--email', 'h@h.test',
      '--line-1', '1 Pier', '--city', 'Boston', '--subdivision', 'MA', '--postal-code', '02110', '--country', 'US']));
  }
  assert.ok(partnerSchema.safeParse(created[0]).success);
  const all = await json(['partner', 'list', '--group', g]);
  assert.ok(partnerListSchema.safeParse(all).success);
  assert.equal(all.data.total_count, demo.partner_ids.length + 3);
  const page = await json(['partner', 'list', '--group', g, '--name', 'HARBOR', '--limit', '2', '--offset', '1']);
  assert.equal(page.data.total_count, 3);
  assert.deepEqual(page.data.items.map((x: { company: string }) => x.company), ['Harbor Lights', 'Zeta LLC']);
  const table = await cli(['partner', 'list', '--group', g, '--name', 'harbor', '--limit', '1']);
  assert.equal(table.code, 0);
  assert.match(table.stdout, /Harbor Foods/);
  assert.doesNotMatch(table.stdout, /Harbor Lights/);
  assert.match(table.stdout, /Showing 1–1 of 3; more with --offset 1\./);
  assertUsageError(await cli(['partner', 'list', '--group', g, '--limit', '0']), /--limit[^]*greater than or equal to 1/);
  assertUsageError(await cli(['partner', 'create', '--group', g, '--company', 'C', '--email', 'bad']), /missing required flags: --city, --country, --line1, --state, --zip/);
  assertUserError(await cli(['partner', 'create', '--group', g, '--company', 'C', '--email', 'bad', '--line1', '1 Pier', '--city', 'Boston', '--state', 'MA', '--zip', '02110', '--country', 'US']), /--email: must be a valid e-mail/);
});

test('invoice create / get / list / update / archive / pdf', async () => {
  const [beans, training, jug] = demo.product_ids;
  const inv = await json(['invoice', 'create', '--group', g, '--partner', demo.partner_ids[0]!, '--processor', demo.processor_id,
    '--due-date', '2099-01-31', '--product', `${beans}:2`, '--product', jug!, '--no-ach', '--note', 'Net 30']);
  assert.ok(invoiceSchema.safeParse(inv).success, JSON.stringify(invoiceSchema.safeParse(inv).error));
  assert.equal(inv.amount, 2400 * 2 + 1850);
  assert.equal(inv.card_enabled, true);
  assert.equal(inv.ach_enabled, false);
  assert.equal(inv.status, 'pending');
  assert.match(inv.invoice_number, /^INV-\d{4}-\d{6}$/);

  const human = await cli(['invoice', 'get', inv.id, '--group', g]);
  assert.equal(human.code, 0);
  assert.match(human.stdout, new RegExp(inv.invoice_number));
  assert.match(human.stdout, new RegExp(`/invoices/${inv.slug}`));
  assert.match(human.stdout, /Espresso beans 1 kg/);

  // Flags: change the quantity of a kept line, detach one, attach a product; the amount follows.
  const [lineBeans, lineJug] = inv.products as Array<{ id: string }>;
  const updated = await json(['invoice', 'update', inv.id, '--group', g, '--quantity', `${lineBeans!.id}:3`, '--remove-line', lineJug!.id,
    '--add-product', `${training}:1`, '--due-date', '2099-02-28', '--ach']);
  assert.equal(updated.products.length, 2);
  assert.equal(updated.products[0].id, lineBeans!.id);
  assert.equal(updated.products[0].quantity, 3);
  assert.equal(updated.products[1].product_id, training);
  assert.equal(updated.amount, 2400 * 3 + 15000);
  assert.equal(updated.due_date, '2099-02-28T00:00:00.000Z');
  assert.equal(updated.ach_enabled, true);
  assert.equal(updated.note, 'Net 30', 'fields without flags are kept');

  // --file: a differing copy of a product value is refused, naming the field.
  const body = {
    due_date: '2099-02-28', processor_id: demo.processor_id, card_enabled: true, ach_enabled: true,
    products: [{ ...updated.products[0], created_at: undefined, updated_at: undefined, amount: 1 }],
  };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-')), 'u.json');
  writeFileSync(file, JSON.stringify(body));
  assertUserError(await cli(['invoice', 'update', inv.id, '--group', g, '--file', file]), /products\.0\.amount: must equal/);
  assertUserError(await cli(['invoice', 'update', inv.id, '--group', g, '--remove-line', 'nope']), /not a line of invoice/);

  const list = await json(['invoice', 'list', '--group', g, '--status', 'pending']);
  assert.ok(invoiceListSchema.safeParse(list).success);
  assert.ok(list.data.items.some((i: { id: string }) => i.id === inv.id));
  const table = await cli(['invoice', 'list', '--group', g, '--limit', '2']);
  assert.equal(table.code, 0);
  assert.match(table.stdout, new RegExp(`${inv.invoice_number} .*pending.*\\$222\\.00`));
  assert.match(table.stdout, /Showing 1–2 of \d+/);

  // PDF to a file: invoice number, line names and total in the text.
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-pdf-'));
  const out = path.join(dir, 'file.pdf');
  const saved = await json(['invoice', 'pdf', inv.id, '--group', g, '-o', out]);
  assert.equal(saved.file, out);
  const { text } = await pdfText(readFileSync(out));
  for (const expected of [inv.invoice_number, 'Espresso beans 1 kg', 'Barista training', 'Total $222.00']) {
    assert.ok(text.includes(expected), `missing ${expected}`);
  }
  const archived = await json(['invoice', 'archive', inv.id, '--group', g]);
  assert.equal(archived.status, 'archived');
  const again = await cli(['invoice', 'archive', inv.id, '--group', g]);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /is archived/);
  assertUserError(await cli(['invoice', 'update', inv.id, '--group', g, '--note', 'x']), /archived invoice cannot be updated/);
  const { text: archivedText } = await pdfText(Buffer.from(readFileSync(out)));
  assert.ok(!archivedText.includes('ARCHIVED'), 'the earlier file is unchanged');
  await json(['invoice', 'pdf', inv.id, '--group', g, '-o', out]);
  assert.ok((await pdfText(readFileSync(out))).text.includes('Status ARCHIVED'));
});

test('invoice past_due after clock advance, in get and list', async () => {
  const inv = await json(['invoice', 'get', demo.invoice_ids[0]!, '--group', g]);
  assert.equal(inv.status, 'pending');
  const due = Date.parse(inv.due_date);
  const now = Date.parse((await json(['clock', 'show'])).now);
  const days = Math.ceil((due - now) / 86_400_000) + 1;
  await json(['clock', 'advance', `${days}d`]);
  assert.equal((await json(['invoice', 'get', inv.id, '--group', g])).status, 'past_due');
  const table = await cli(['invoice', 'list', '--group', g, '--status', 'past_due']);
  assert.match(table.stdout, new RegExp(`${inv.invoice_number} .*PAST DUE`));
});

test('invoice create errors name the field', async () => {
  assertUserError(
    await cli(['invoice', 'create', '--group', g, '--partner', demo.partner_ids[0]!, '--processor', demo.processor_id, '--due-date', '2099-02-30', '--product', demo.product_ids[0]!]),
    /--due-date: "2099-02-30" is not a real date/,
  );
  // Usage and rules agree: an invoice needs a line, and the usage line says so.
  assertUsageError(
    await cli(['invoice', 'create', '--group', g, '--partner', demo.partner_ids[0]!, '--processor', demo.processor_id, '--due-date', '2099-02-01']),
    /missing required flag: --product/,
  );
  const bad = await cli(['invoice', 'create', '--group', g, '--partner', demo.partner_ids[0]!, '--processor', demo.processor_id, '--due-date', '2099-02-01', '--product', 'x:y']);
  assertUsageError(bad, /--product "x:y" must be ID or ID:QUANTITY/);
});
