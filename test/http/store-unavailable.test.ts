// A store that refuses writes (a read-only disk or database): every write is answered
// 503 store_unavailable with Retry-After and the cause in words, never 500; reads go on;
// once it takes writes again the next request succeeds, with no restart, and a retry with
// the same Idempotency-Key charges once. Both stores (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { refuseWrites } from '../helpers/store.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const salePath = () => `/api/v1/groups/${s.demo.group_id}/transaction`;
const sale = (orderId: string, key: string) =>
  s.call('POST', salePath(), { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { orderId }), headers: { 'idempotency-key': key } });
const salesOf = async (orderId: string) =>
  Number((await s.p.db.get<{ n: number }>('SELECT count(*) AS n FROM transactions WHERE order_id = ?', [orderId]))!.n);

test('a store refusing writes: 503 store_unavailable with Retry-After, reads still answer; writable again, the same key charges once', async () => {
  const before = await sale('ro-before', 'ro-key-0');
  assert.equal(before.status, 200, before.text);
  await refuseWrites(s.p.db, s.dbPath, true);
  try {
    const refused = await sale('ro-1', 'ro-key-1');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.type, 'store_unavailable');
    assert.equal(refused.body.error.message, 'the store is unavailable: the database file or its disk is read-only; retry in 5s');
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.ok(refused.headers.get('request-id'));
    // Reads are served meanwhile.
    const read = await s.call('GET', `${salePath()}/${before.body.id}`, { key: s.demo.keys.manage_transactions });
    assert.equal(read.status, 200, read.text);
    assert.equal((await sale('ro-1', 'ro-key-1')).status, 503, 'still refused: not a cached answer either way');
  } finally {
    await refuseWrites(s.p.db, s.dbPath, false);
  }
  const retried = await sale('ro-1', 'ro-key-1');
  assert.equal(retried.status, 200, retried.text);
  assert.equal(retried.headers.get('idempotent-replayed'), null, 'the first answer that was saved');
  const again = await sale('ro-1', 'ro-key-1');
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.body.id, retried.body.id);
  assert.equal(await salesOf('ro-1'), 1, 'charged once');
});
