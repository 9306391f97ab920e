// A sandbox dropped in chunks (docs/sandboxes.md, "Dropping a large sandbox"): every row
// goes, children first; its keys stop working with the first write; a drop a killed
// server left part-way is left out of due work and finished by the next tick.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, addCustomers, dumpGroup, newSandbox, rowCount } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

test('DELETE drops every row of a sandbox of thousands of rows, in chunks, and answers the rows per table', async () => {
  const sb = await newSandbox(s, { demo: true, name: 'big' });
  await addCustomers(s.p.db, sb, 3000);
  const before = await dumpGroup(s.p.db, sb.group_id);
  const r = await s.call('DELETE', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.rows.customers, before.customers!.length);
  assert.equal(r.body.rows.groups, 1);
  assert.equal(r.body.rows.api_keys, before.api_keys!.length);
  assert.equal(rowCount(await dumpGroup(s.p.db, sb.group_id)), 0);
  const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
  assert.equal(sale.status, 401);
  assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN })).status, 404);
});

test('a drop left part-way (a kill -9 between chunks): keys gone, no due work, and the next tick finishes it', async () => {
  const sb = await newSandbox(s, { demo: true, name: 'half dropped' });
  await addCustomers(s.p.db, sb, 1200);
  await s.p.db.write((tx) => tx.repos.groupRows.beginDrop(tx, sb.group_id, new Date().toISOString()));
  // One statement's worth of rows, then the chunk's budget is "spent".
  const first = await s.p.db.write((tx) => tx.repos.groupRows.dropChunk(tx, sb.group_id, () => true));
  assert.equal(first.done, false);
  const left = rowCount(await dumpGroup(s.p.db, sb.group_id));
  assert.ok(left > 1000, `rows left: ${left}`);
  const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
  assert.equal(sale.status, 401, 'its keys stopped working with the first write');
  const work = await runDueWork(s.p);
  assert.equal(work['sandbox-drops'], 1);
  assert.equal(rowCount(await dumpGroup(s.p.db, sb.group_id)), 0);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN })).status, 404);
});
