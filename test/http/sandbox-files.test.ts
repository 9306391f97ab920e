// A sandbox as a file over the real server: GET …/export streams a checked file (header,
// rows, trailer with counts and SHA-256, no secrets), POST /api/v1/sandboxes/import makes a
// new sandbox of it (new ids beside its source, new keys and webhook secrets, the same
// clock), a file of an older schema version imports, and a broken file (cut off, changed,
// not JSON, an unknown table or column, a newer version) is refused with its line and
// rule, leaving nothing behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
after(() => s.close());

/** The fixture written at schema version 15 (test/fixtures/sandbox-files/README.md). */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/sandbox-files/schema-15.jsonl');

async function exportText(groupId: string): Promise<string> {
  const res = await fetch(`${s.url}/api/v1/sandboxes/${groupId}/export`, { headers: { authorization: ADMIN } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
  return res.text();
}

async function importText(text: string, query = '') {
  const res = await fetch(`${s.url}/api/v1/sandboxes/import${query}`, {
    method: 'POST',
    headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' },
    body: text,
  });
  const body = await res.text();
  return { status: res.status, body: JSON.parse(body), text: body };
}

/** A file with its lines changed by `edit` and its trailer written again (counts, lines, SHA-256), as a writer of that content would have. */
function rewritten(text: string, edit: (lines: Array<Record<string, any>>) => Array<Record<string, any>>): string {
  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  const trailer = lines.pop()!;
  const body = edit(lines).map((l) => `${JSON.stringify(l)}\n`).join('');
  const counts: Record<string, number> = {};
  for (const l of lines.slice(1)) counts[l.table] = (counts[l.table] ?? 0) + 1;
  const out = { ...trailer, lines: body.split('\n').length - 1, counts: { ...Object.fromEntries(Object.keys(trailer.counts).map((t) => [t, 0])), ...counts }, sha256: createHash('sha256').update(body).digest('hex') };
  return `${body}${JSON.stringify(out)}\n`;
}

const sandboxCount = async () => (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;
const groupCount = async () => Number((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM groups'))!.n);

let source: SandboxReply;
let endpointSecret: string;
let file: string;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_IMPORT_ANSWER_MS: '600000' } });
  source = await newSandbox(s, { demo: true, name: 'to export' });
  const sale = await s.call('POST', `/api/v1/groups/${source.group_id}/transaction`, { key: source.keys.manage_transactions, body: saleBody(source.processor_id) });
  assert.equal(sale.status, 200, sale.text);
  const hook = await s.call('POST', `/api/v1/groups/${source.group_id}/webhook_endpoints`, {
    key: source.keys.manage_webhooks,
    body: { url: 'http://127.0.0.1:9/hook', enabled_events: ['transaction.*'] },
  });
  assert.equal(hook.status, 200, hook.text);
  endpointSecret = hook.body.secret;
  const fault = await s.call('POST', `/api/v1/sandboxes/${source.group_id}/faults`, { key: ADMIN, body: { operation: 'sale', action: 'error', status: 503, count: 2 } });
  assert.equal(fault.status, 201, fault.text);
  file = await exportText(source.group_id);
});

describe('GET /api/v1/sandboxes/{group_id}/export', () => {
  test('a header, a line per row, a trailer whose counts and SHA-256 agree; no key, secret or card number in it', async () => {
    const lines = file.trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    assert.equal(header.format, 'payctl-sandbox');
    assert.equal(header.format_version, 1);
    assert.ok(header.schema_version >= 31);
    assert.equal(header.source.group_id, source.group_id);
    assert.deepEqual(header.tables.slice(0, 3), ['groups', 'processors', 'linked_accounts']);
    const trailer = JSON.parse(lines[lines.length - 1]!);
    assert.equal(trailer.lines, lines.length - 1);
    assert.equal(trailer.sha256, createHash('sha256').update(lines.slice(0, -1).map((l) => `${l}\n`).join('')).digest('hex'));
    const rows = lines.slice(1, -1).map((l) => JSON.parse(l));
    const counted: Record<string, number> = {};
    for (const r of rows) counted[r.table] = (counted[r.table] ?? 0) + 1;
    for (const [table, n] of Object.entries(trailer.counts)) assert.equal(counted[table] ?? 0, n, table);
    assert.ok(counted.transactions! >= 2 && counted.events! >= 1 && counted.fault_rules === 1 && counted.webhook_endpoints === 1);
    for (const table of ['api_keys', 'idempotency_keys', 'payment_link_sessions', 'webhook_deliveries', 'webhook_attempts']) assert.equal(counted[table], undefined, table);
    assert.ok(!file.includes(endpointSecret.slice(6)), 'the webhook secret');
    for (const key of Object.values(source.keys)) assert.ok(!file.includes(key), 'an API key');
    // Cards are what the store keeps (first six, last four); "cvv" is the processor's check result ("M"), never the code.
    assert.ok(!/\b4242424242424242\b|"cvv":"\d{3,4}"/.test(file), 'a card number or CVV');
    assert.equal(rows.find((r) => r.table === 'webhook_endpoints').row.secret, undefined);
  });

  test('404 for an unknown sandbox; 401 without the admin token, 403 with a group key', async () => {
    assert.equal((await s.call('GET', '/api/v1/sandboxes/nope/export', { key: ADMIN })).status, 404);
    assert.equal((await s.call('GET', `/api/v1/sandboxes/${source.group_id}/export`)).status, 401);
    assert.equal((await s.call('GET', `/api/v1/sandboxes/${source.group_id}/export`, { key: source.keys.manage_transactions })).status, 403);
  });
});

describe('POST /api/v1/sandboxes/import', () => {
  test('201: a new sandbox beside its source, every row with a new id, new keys and webhook secrets, the same clock', async () => {
    const r = await importText(file, '?name=imported');
    assert.equal(r.status, 201, r.text);
    const sb = r.body;
    assert.notEqual(sb.group_id, source.group_id);
    assert.equal(sb.name, 'imported');
    assert.equal(sb.status, 'active');
    assert.equal(sb.imported_from.group_id, source.group_id);
    assert.equal(sb.id_map[source.customer_id as string] !== undefined, true);
    assert.equal(sb.processor_id, sb.id_map[source.processor_id]);
    assert.equal(sb.linked_account_id, sb.id_map[source.linked_account_id]);
    // The same rows (but the group's own), in the new sandbox.
    const header = JSON.parse(file.split('\n')[0]!);
    const counts = await s.p.db.repos.sandboxFiles.count(s.p.db, sb.group_id);
    assert.deepEqual(counts, await s.p.db.repos.sandboxFiles.count(s.p.db, source.group_id));
    assert.deepEqual(sb.rows, Object.fromEntries(Object.entries(header.counts).filter(([, n]) => (n as number) > 0)));
    // Its clock is where the source's was (both run on from there).
    const clocks = await Promise.all([source.group_id, sb.group_id].map(async (g) => Date.parse((await s.call('GET', `/api/v1/sandboxes/${g}/clock`, { key: ADMIN })).body.now)));
    assert.ok(Math.abs(clocks[0]! - clocks[1]!) < 60_000, `${clocks}`);
    // New keys work; the source's keys do not reach it.
    const customerPath = `/api/v1/groups/${sb.group_id}/customers/${sb.id_map[source.customer_id as string]}`;
    const customer = await s.call('GET', customerPath, { key: sb.keys.manage_customers });
    assert.equal(customer.status, 200, customer.text);
    assert.equal(customer.body.id, sb.id_map[source.customer_id as string]);
    assert.equal((await s.call('GET', customerPath, { key: source.keys.manage_customers })).status, 403);
    // A new secret per webhook endpoint, shown once here.
    const [endpointId, secret] = Object.entries(sb.webhook_secrets)[0]! as [string, string];
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, endpointSecret);
    const endpoints = await s.call('GET', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, { key: sb.keys.manage_webhooks });
    assert.deepEqual(endpoints.body.data.items.map((e: { id: string }) => e.id), [endpointId]);
    // Its fault rules came along: the first sale meets the 503.
    const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
    assert.equal(sale.status, 503, sale.text);
    // A second import of the same file is a third sandbox.
    const again = await importText(file);
    assert.equal(again.status, 201, again.text);
    assert.notEqual(again.body.group_id, sb.group_id);
    assert.equal(again.body.name, 'to export');
  });

  test('a file written at schema version 15 imports: its rows are brought up to date', async () => {
    const r = await importText(readFileSync(FIXTURE, 'utf8'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.imported_from.schema_version, 15);
    const invoices = await s.call('GET', `/api/v1/groups/${r.body.group_id}/invoices`, { key: r.body.keys.view_invoices });
    assert.equal(invoices.status, 200, invoices.text);
    assert.ok(invoices.body.data.items.length > 0);
    const notified = await s.p.db.all<{ past_due_notified_at: string | null }>('SELECT past_due_notified_at FROM invoices WHERE group_id = ?', [r.body.group_id]);
    assert.ok(notified.every((i) => i.past_due_notified_at === null));
    const faults = await s.call('GET', `/api/v1/sandboxes/${r.body.group_id}/faults`, { key: ADMIN });
    assert.deepEqual(faults.body.data, []);
  });

  const lines = () => file.trimEnd().split('\n');
  const refusals: Array<[string, () => string, RegExp]> = [
    ['cut off inside a line', () => file.slice(0, Math.floor(file.length / 2)), /line \d+: the file ends inside this line: it was cut off/],
    ['cut off at a line end (no trailer)', () => lines().slice(0, -1).join('\n') + '\n', /without its trailer line: it was cut off/],
    ['a changed value', () => file.replace('"to export"', '"to exporT"'), /sha256 does not match/],
    ['a line that is not JSON', () => lines().map((l, i) => (i === 3 ? l.slice(0, -1) : l)).join('\n') + '\n', /line 4: is not valid JSON/],
    ['not a sandbox file', () => '{"hello": "world"}\n', /line 1: is not a payctl-sandbox header/],
    ['an empty body', () => '', /the file is empty/],
    ['a newer format version', () => file.replace('"format_version":1', '"format_version":2'), /line 1: format_version 2 is newer/],
    ['a newer schema version', () => file.replace(/"schema_version":\d+/, '"schema_version":999'), /line 1: schema_version 999 is newer than this database's/],
    ['a column the table lacks (checksum rewritten)', () => rewritten(file, (ls) => ls.map((l, i) => (i === 2 ? { ...l, row: { ...l.row, surprise: 1 } } : l))), /line 3: processors has no column surprise/],
    ['a table no file holds', () => rewritten(file, (ls) => [ls[0]!, { table: 'api_keys', row: { id: 'k' } }, ...ls.slice(1)]), /line 2: table "api_keys" is not one/],
    ['rows out of the tables order', () => rewritten(file, (ls) => [ls[0]!, ls[1]!, ...ls.slice(2).reverse()]), /come after rows of/],
    ['a row before the sandbox itself', () => rewritten(file, (ls) => [ls[0]!, ls[2]!, ls[1]!, ...ls.slice(3)]), /line 2: the sandbox itself \(its groups row\) comes first/],
    ['an id twice', () => rewritten(file, (ls) => [...ls.slice(0, 3), ls[2]!, ...ls.slice(3)]), /line 4: processors.id .* appears twice/],
    ['a row of another sandbox', () => rewritten(file, (ls) => ls.map((l) => (l.table === 'customers' ? { ...l, row: { ...l.row, group_id: s.demo.group_id } } : l))), /line \d+: customers.group_id must be the file's sandbox/],
    ['a line hanging off a row the file does not hold', () => rewritten(file, (ls) => ls.map((l) => (l.table === 'invoice_lines' ? { ...l, row: { ...l.row, invoice_id: (s.demo.invoice_ids as string[])[0] } } : l))), /line \d+: invoice_lines.invoice_id must name a row of the file further up/],
    ['a trailer counting other rows', () => file.replace(/"counts":\{"groups":1,"processors":1/, '"counts":{"groups":1,"processors":2').replace(/(\{"end".*)"processors":1/, '$1"processors":2'), /the trailer counts 2 rows of processors, the file has 1/],
  ];
  for (const [what, make, message] of refusals) {
    test(`400 for ${what}, naming the line and the rule; nothing left behind`, async () => {
      const [sandboxes, groups] = [await sandboxCount(), await groupCount()];
      const r = await importText(make());
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.type, 'validation_error');
      assert.match(r.body.error.message, message);
      assert.match(r.body.error.fields[0].path, /^\(file\) (line \d+|end)$/);
      assert.equal(await sandboxCount(), sandboxes);
      assert.equal(await groupCount(), groups);
    });
  }

  test("a reference to a row the file does not hold gets a new id of its own: it never names another sandbox's row", async () => {
    const other = await newSandbox(s, { demo: true });
    const r = await importText(rewritten(file, (ls) => ls.map((l) => (l.table === 'transactions' ? { ...l, row: { ...l.row, customer_id: other.customer_id } } : l))));
    assert.equal(r.status, 201, r.text);
    const sales = await s.p.db.all<{ customer_id: string }>('SELECT customer_id FROM transactions WHERE group_id = ?', [r.body.group_id]);
    assert.ok(sales.length > 0);
    for (const c of sales) {
      assert.notEqual(c.customer_id, other.customer_id);
      assert.equal(await s.p.db.get('SELECT id FROM customers WHERE id = ?', [c.customer_id]), undefined);
    }
  });

  test('a row the database refuses drops what was written and is refused with its lines', async () => {
    const groups = await groupCount();
    // A customer without its NOT NULL name: every line is well-formed, the store refuses the row.
    const broken = rewritten(file, (ls) => ls.map((l) => (l.table === 'customers' ? { ...l, row: { ...l.row, first_name: null } } : l)));
    const r = await importText(broken);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.error.message, /lines \d+–\d+: the database refused a row/);
    assert.equal(await groupCount(), groups);
    assert.equal(Number((await s.p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM fork_jobs WHERE phase = 'import'"))!.n), 0);
  });

  test('the import route refuses Idempotency-Key (its answer carries keys)', async () => {
    const res = await fetch(`${s.url}/api/v1/sandboxes/import`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson', 'idempotency-key': 'k1' },
      body: file,
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Idempotency-Key/);
  });
});
