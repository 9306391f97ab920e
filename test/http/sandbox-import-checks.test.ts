// An import is checked like the API checks a request (docs/sandboxes.md, "Checked before
// anything is written"): every row's values and the header's clock and name are held to
// the API's rules, so a file the API could never have made is a 400 naming the line and
// the field, nothing of it is written and its spooled upload is removed — on a refusal,
// over a cap (413), and when the client goes away mid-upload. The values here are the
// ones that imported before and then broke due work, reports and lists.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

// The spool of an import goes under the temporary folder: this file's own, to count it.
const TMP = mkdtempSync(path.join(tmpdir(), 'payctl-import-checks-'));
process.env.TMPDIR = TMP;
const spools = () => readdirSync(TMP).filter((f) => f.startsWith('payctl-import-'));

const MAX_ROWS = 400;
const MAX_BYTES = 3_000_000;

let s: TestServer;
let source: SandboxReply;
let file: string;
after(async () => {
  await s.close();
  rmSync(TMP, { recursive: true, force: true });
});
before(async () => {
  s = await startTestServer({
    adminToken: ADMIN,
    env: { ...process.env, PAYCTL_IMPORT_ANSWER_MS: '600000', PAYCTL_IMPORT_MAX_ROWS: String(MAX_ROWS), PAYCTL_IMPORT_MAX_BYTES: String(MAX_BYTES) },
  });
  source = await newSandbox(s, { demo: true, name: 'checked', clock: '2026-03-15T12:00:00Z' });
  const sale = await s.call('POST', `/api/v1/groups/${source.group_id}/transaction`, { key: source.keys.manage_transactions, body: saleBody(source.processor_id) });
  assert.equal(sale.status, 200, sale.text);
  const res = await fetch(`${s.url}/api/v1/sandboxes/${source.group_id}/export`, { headers: { authorization: ADMIN } });
  file = await res.text();
});

type Line = Record<string, any>;

/** The file with its lines changed by `edit` and its trailer written again (counts, lines, SHA-256). */
function rewritten(text: string, edit: (lines: Line[]) => Line[]): string {
  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  const trailer = lines.pop()!;
  const edited = edit(lines);
  const body = edited.map((l) => `${JSON.stringify(l)}\n`).join('');
  const counts: Record<string, number> = Object.fromEntries(Object.keys(trailer.counts).map((t) => [t, 0]));
  for (const l of edited.slice(1)) counts[l.table] = (counts[l.table] ?? 0) + 1;
  return `${body}${JSON.stringify({ ...trailer, lines: edited.length, counts, sha256: createHash('sha256').update(body).digest('hex') })}\n`;
}

const withHeader = (change: (h: Line) => void) => rewritten(file, (lines) => (change(lines[0]!), lines));
/** The file with the first row of `table` changed. */
const withRow = (table: string, change: (row: Line) => void) =>
  rewritten(file, (lines) => {
    const line = lines.find((l) => l.table === table)!;
    change(line.row);
    return lines;
  });
const lineOf = (text: string, table: string) => text.split('\n').findIndex((l) => l.startsWith(`{"table":"${table}"`)) + 1;

async function importText(text: string) {
  const res = await fetch(`${s.url}/api/v1/sandboxes/import`, { method: 'POST', headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' }, body: text });
  const body = await res.text();
  return { status: res.status, body: JSON.parse(body), text: body };
}

const groupCount = async () => Number((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM groups'))!.n);

/** The file is refused with `status`, naming `where` and `words`; nothing of it is written and its spool is gone. */
async function refused(text: string, status: number, where: RegExp, words: RegExp) {
  const groups = await groupCount();
  const r = await importText(text);
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error.type, status === 400 ? 'validation_error' : 'invalid_request');
  assert.match(r.body.error.message, where);
  assert.match(r.body.error.message, words);
  assert.equal(await groupCount(), groups, 'nothing of the file is written');
  assert.deepEqual(spools(), [], 'the spooled upload is removed');
  return r;
}

describe('the header is held to the API rules', () => {
  test('the reported file: header clock 2000-01-02T12:00:00Z and a pending transaction of 1.5 cents is a 400 naming the line and the field', async () => {
    const text = rewritten(file, (lines) => {
      lines[0]!.source.clock = '2000-01-02T12:00:00Z';
      const tx = lines.find((l) => l.table === 'transactions' && l.row.status === 'pending')!;
      tx.row.captured_amount = 1.5;
      return lines;
    });
    const r = await refused(text, 400, new RegExp(`line ${lineOf(text, 'transactions')}\\b`), /transactions\.captured_amount/);
    assert.equal(r.body.error.fields[0].path, `(file) line ${lineOf(text, 'transactions')}`);
  });

  for (const clock of ['garbage', '10000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '1969-12-31T23:59:59Z']) {
    test(`a header clock ${clock} is a 400 naming source.clock, with the spool removed`, async () => {
      await refused(withHeader((h) => (h.source.clock = clock)), 400, /line 1\b/, /source\.clock/);
    });
  }

  test("a header's sandbox name of 2,000,000 characters is a 400 (sandbox create takes at most 100)", async () => {
    await refused(withHeader((h) => (h.source.name = 'n'.repeat(2_000_000))), 400, /line 1\b/, /source\.name.*at most 100/);
  });

  test('exported_at must be an instant too', async () => {
    await refused(withHeader((h) => (h.exported_at = 'yesterday')), 400, /line 1\b/, /exported_at/);
  });
});

describe('every row is held to the API rules', () => {
  for (const [label, value] of [['100000000000', 100_000_000_000], ['2^62', 2 ** 62], ['-5', -5], ['1.5', 1.5], ['"lots"', 'lots']] as const) {
    test(`an amount of ${label} is a 400 naming the line and the field`, async () => {
      const text = withRow('transactions', (r) => (r.requested_amount = value));
      await refused(text, 400, new RegExp(`line ${lineOf(text, 'transactions')}\\b`), /transactions\.requested_amount must/);
    });
  }

  test("a sandbox row's name of 2,000,000 characters is a 400", async () => {
    await refused(withRow('groups', (r) => (r.name = 'x'.repeat(2_000_000))), 400, /line 2\b/, /groups\.name must be at most 100 characters/);
  });

  test('instants, dates, enums and texts: each refused with its rule', async () => {
    await refused(withRow('transactions', (r) => (r.created_at = '+275760-09-13T00:00:00Z')), 400, /line \d+/, /transactions\.created_at/);
    await refused(withRow('invoices', (r) => (r.due_date = '2027-02-31')), 400, /line \d+/, /invoices\.due_date .*not a real date/);
    await refused(withRow('transactions', (r) => (r.status = 'teleported')), 400, /line \d+/, /transactions\.status must be one of/);
    await refused(withRow('customers', (r) => (r.first_name = 'y'.repeat(5001))), 400, /line \d+/, /customers\.first_name must be at most 5000 characters/);
    await refused(withRow('invoice_lines', (r) => (r.quantity = 2.5)), 400, /line \d+/, /invoice_lines\.quantity must be a whole number/);
  });

  test('a file that keeps every rule still imports, its spool removed', async () => {
    const r = await importText(file);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(spools(), []);
  });
});

describe('caps (413 naming the cap)', () => {
  /** The file with `n` more customers (copies of its first, new ids). */
  const withCustomers = (n: number, pad = 0) =>
    rewritten(file, (lines) => {
      const at = lines.findIndex((l) => l.table === 'customers');
      const first = lines[at]!;
      const more = Array.from({ length: n }, (_, i) => ({ table: 'customers', row: { ...first.row, id: `cus_more_${i}`, first_name: 'x'.repeat(pad), last_name: 'x'.repeat(pad) } }));
      return [...lines.slice(0, at + 1), ...more, ...lines.slice(at + 1)];
    });

  test('more rows than PAYCTL_IMPORT_MAX_ROWS', async () => {
    await refused(withCustomers(MAX_ROWS), 413, /more than 400 rows/, /PAYCTL_IMPORT_MAX_ROWS/);
  });

  test('more bytes than PAYCTL_IMPORT_MAX_BYTES, announced (Content-Length) or found as it arrives (chunked)', async () => {
    const big = withCustomers(MAX_ROWS - 60, 4900);
    assert.ok(Buffer.byteLength(big) > MAX_BYTES);
    await refused(big, 413, /more than 3000000 bytes/, /PAYCTL_IMPORT_MAX_BYTES/);
    const res = await fetch(`${s.url}/api/v1/sandboxes/import`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.match((await res.json()).error.message, /PAYCTL_IMPORT_MAX_BYTES/);
    assert.deepEqual(spools(), []);
  });
});

test('a client gone mid-upload leaves no spool and no sandbox behind', async () => {
  const groups = await groupCount();
  const lines = file.split('\n');
  const req = request(`${s.url}/api/v1/sandboxes/import`, { method: 'POST', headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' } });
  req.on('error', () => undefined);
  req.write(`${lines.slice(0, 5).join('\n')}\n`);
  // The server has the upload under way once its spool exists.
  for (let i = 0; i < 200 && spools().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(spools().length, 1, 'the upload is being spooled');
  req.destroy();
  for (let i = 0; i < 500 && spools().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(spools(), []);
  assert.equal(await groupCount(), groups);
});
