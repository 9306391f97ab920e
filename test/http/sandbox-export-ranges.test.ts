// An export reads a table in ranges of 1,000 rows and each range in pages bounded by
// bytes (src/services/sandboxes/export.ts): a table of 2,500 rows, some of them fat
// enough that a page is one row, comes out whole, once each and in its order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';

let s: TestServer;
after(() => s.close());
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_IMPORT_ANSWER_MS: '600000' } });
});

const ROWS = 2500;
const FAT = 300_000;

async function exportLines(groupId: string): Promise<Array<Record<string, any>>> {
  const res = await fetch(`${s.url}/api/v1/sandboxes/${groupId}/export`, { headers: { authorization: ADMIN } });
  assert.equal(res.status, 200);
  return (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l));
}

test('2,500 events, every 400th of 300 KB: each exported once, in order, with its data whole', async () => {
  const source = await newSandbox(s, { demo: true, name: 'ranges' });
  const lines = await exportLines(source.group_id);
  const header = lines[0]!;
  const trailer = lines.pop()!;
  const tables: string[] = header.tables;
  // The new events go where the events table's rows end in the header's order.
  let at = lines.findIndex((l, i) => i > 0 && tables.indexOf(l.table) > tables.indexOf('events'));
  if (at < 0) at = lines.length;
  const added = Array.from({ length: ROWS }, (_, n) => ({
    table: 'events',
    row: {
      id: `0195${n.toString(16).padStart(4, '0')}-0000-7000-8000-${(n + 7).toString(16).padStart(12, '0')}`,
      group_id: source.group_id,
      type: 'customer.updated',
      created_at: '2026-01-01T00:00:00.000Z',
      request_id: null,
      idempotency_key: null,
      data: JSON.stringify({ object: { n, pad: 'x'.repeat(n % 400 === 0 ? FAT : 10) } }),
    },
  }));
  const body = [...lines.slice(0, at), ...added, ...lines.slice(at)].map((l) => `${JSON.stringify(l)}\n`).join('');
  const counts = { ...trailer.counts, events: trailer.counts.events + ROWS };
  const file = `${body}${JSON.stringify({ ...trailer, lines: lines.length + ROWS, counts, sha256: createHash('sha256').update(body).digest('hex') })}\n`;
  const imported = await fetch(`${s.url}/api/v1/sandboxes/import`, { method: 'POST', headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' }, body: file });
  assert.equal(imported.status, 201, await imported.clone().text());
  const copy = (await imported.json()) as { group_id: string };

  const out = await exportLines(copy.group_id);
  const end = out.pop()!;
  assert.deepEqual(end.counts, counts);
  assert.equal(end.lines, out.length);
  const ns = out.filter((l) => l.table === 'events').map((l) => JSON.parse(l.row.data).object).filter((o) => typeof o.n === 'number');
  assert.deepEqual(
    ns.map((o) => o.n),
    Array.from({ length: ROWS }, (_, n) => n),
  );
  for (const o of ns) assert.equal(o.pad.length, o.n % 400 === 0 ? FAT : 10, `event ${o.n}`);
});
