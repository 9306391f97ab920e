// An import whose rows are not all written within its answer budget
// (PAYCTL_IMPORT_ANSWER_MS, 0 here) answers 202 with the whole answer (keys, webhook
// secrets, id map) and its progress; GET of the sandbox shows how far it is until it is
// active; meanwhile its keys, its clock, a fork and an export of it are refused with 409
// naming it. Dropped while it writes, it stops and nothing of it is left; one a killed
// server left behind is dropped by the tick.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addCustomers, ADMIN, newSandbox } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { dropStaleImports, STALE_IMPORT_MS } from '../../src/services/sandboxes/import.js';

let s: TestServer;
let file: string;
let sourceId: string;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_IMPORT_ANSWER_MS: '0' } });
  const big = await newSandbox(s, { demo: true, name: 'big' });
  await addCustomers(s.p.db, big, 20_000);
  sourceId = big.group_id;
  file = await (await fetch(`${s.url}/api/v1/sandboxes/${big.group_id}/export`, { headers: { authorization: ADMIN } })).text();
});
after(() => s.close());

const importFile = async () => {
  const res = await fetch(`${s.url}/api/v1/sandboxes/import`, { method: 'POST', headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' }, body: file });
  return { status: res.status, body: await res.json() };
};
const rowsOf = async (groupId: string) => Object.values(await s.p.db.repos.groupRows.count(s.p.db, groupId)).reduce((a, b) => a + b, 0);
const until = async (cond: () => Promise<boolean>, what: string) => {
  for (let i = 0; !(await cond()); i++) {
    assert.ok(i < 20_000, `waited too long for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

test('a large import past its answer budget: 202 with keys and progress, GET shows importing then active, 409 meanwhile, the keys work after', async () => {
  const r = await importFile();
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const sb = r.body;
  assert.equal(sb.status, 'importing');
  assert.equal(sb.import.source_id, sourceId);
  assert.ok(sb.import.rows_total >= 20_000, `rows_total ${sb.import.rows_total}`);
  assert.ok(sb.import.rows_imported < sb.import.rows_total);
  assert.ok(Object.keys(sb.id_map).length > 0 && sb.processor_id);
  const id = sb.group_id as string;

  // While it writes: its keys, its clock, a fork and an export of it are refused, naming it.
  const sale = await s.call('POST', `/api/v1/groups/${id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
  assert.equal(sale.status, 409, JSON.stringify(sale.body));
  assert.match(sale.body.error.message, new RegExp(`sandbox ${id} is still being imported`));
  assert.equal((await s.call('POST', `/api/v1/sandboxes/${id}/clock`, { key: ADMIN, body: { advance: '1d' } })).status, 409);
  assert.equal((await s.call('POST', `/api/v1/sandboxes/${id}/fork`, { key: ADMIN, body: {} })).status, 409);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${id}/export`, { key: ADMIN })).status, 409);

  const seen: number[] = [];
  await until(async () => {
    const g = await s.call('GET', `/api/v1/sandboxes/${id}`, { key: ADMIN });
    assert.equal(g.status, 200, g.text);
    if (g.body.status === 'importing') seen.push(g.body.import.rows_imported);
    else assert.equal(g.body.import, undefined);
    return g.body.status === 'active';
  }, 'the import to be active');
  assert.ok(seen.length > 0, 'GET saw the import under way');
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!, 'progress never goes backwards');

  // The same rows as the source; the keys issued at the start work now.
  assert.deepEqual(await s.p.db.repos.sandboxFiles.count(s.p.db, id), await s.p.db.repos.sandboxFiles.count(s.p.db, sourceId));
  const paid = await s.call('POST', `/api/v1/groups/${id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
});

test('an import dropped while it writes stops: nothing of it is left', async () => {
  const r = await importFile();
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const id = r.body.group_id as string;
  const dropped = await s.call('DELETE', `/api/v1/sandboxes/${id}`, { key: ADMIN });
  assert.equal(dropped.status, 200, dropped.text);
  // Its run meets the drop at its next chunk and stops; no chunk writes after it.
  await until(async () => Number((await s.p.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM fork_jobs WHERE phase = 'import'"))!.n) === 0, 'the run to stop');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await rowsOf(id), 0);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${id}`, { key: ADMIN })).status, 404);
});

test("the tick drops an import no server has written for a while (its server was killed: the file was that server's)", async () => {
  const id = '01a22999-0000-7000-8000-000000000001';
  const at = '2030-01-01T00:00:00.000Z';
  await s.p.db.write((tx) =>
    tx.repos.sandboxFiles.beginImport(tx, { id, name: 'orphan', pricing: 'flat', status: 'importing', sandbox: 1, clock_offset_ms: 0, created_at: at, updated_at: at }, sourceId, 10, Date.now() - STALE_IMPORT_MS - 1),
  );
  const fresh = '01a22999-0000-7000-8000-000000000002';
  await s.p.db.write((tx) =>
    tx.repos.sandboxFiles.beginImport(tx, { id: fresh, name: 'recent', pricing: 'flat', status: 'importing', sandbox: 1, clock_offset_ms: 0, created_at: at, updated_at: at }, sourceId, 10, Date.now()),
  );
  assert.equal(await dropStaleImports(s.p), 1);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${id}`, { key: ADMIN })).status, 404);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${fresh}`, { key: ADMIN })).body.status, 'importing');
  await s.call('DELETE', `/api/v1/sandboxes/${fresh}`, { key: ADMIN });
});
