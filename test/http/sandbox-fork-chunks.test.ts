// A fork of a large sandbox runs in chunks (src/services/sandboxes/fork-run.ts): each
// chunk is a write of its own that goes on from where the database says the last one
// stopped, so the copy is the same whether it took one chunk or hundreds, and other
// groups' writes are answered while a fork is under way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addCustomers as addCustomersTo, ADMIN, forkedCounts, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { newId } from '../../src/lib/ids.js';

let s: TestServer;
before(async () => {
  // Forks are answered whole however long they take on a loaded machine: this file is
  // about the chunks; the answer budget's 202 is sandbox-fork-progress.test.ts's.
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_FORK_ANSWER_MS: '600000' } });
});
after(() => s.close());

const addCustomers = (sb: SandboxReply, n: number) => addCustomersTo(s.p.db, sb, n);
const counts = (groupId: string) => forkedCounts(s.p.db, groupId);

test('a fork taken one step per chunk (hundreds of writes) copies the same rows as the source, relationships pointed at the copies', async () => {
  const original = await newSandbox(s, { demo: true });
  await addCustomers(original, 3000);
  const forkId = newId();
  await s.p.db.write((tx) => tx.repos.groupRows.beginFork(tx, original.group_id, forkId, 'stepwise', '2030-01-01T00:00:00.000Z'));
  let chunks = 0;
  const fresh = { id: newId, secret: () => newId() };
  for (;;) {
    // Each chunk takes one step (its budget is over at once): every chunk starts from what the last one committed.
    const step = await s.p.db.write((tx) => tx.repos.groupRows.forkChunk(tx, forkId, fresh, () => true));
    chunks++;
    assert.ok(step, 'the fork is under way');
    if (step.phase === 'copied') break;
    assert.ok(chunks < 1000, 'the fork ends');
  }
  assert.ok(chunks >= 12, `${chunks} chunks`);
  // Until it is whole the fork is listed as forking.
  const listed = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.find((g: { group_id: string }) => g.group_id === forkId);
  assert.equal(listed?.status, 'forking');
  const done = await s.p.db.write((tx) => tx.repos.groupRows.finishFork(tx, forkId));
  assert.equal(done?.idMap[original.customer_id as string] !== undefined, true);
  const source = await counts(original.group_id);
  assert.deepEqual(await counts(forkId), source);
  assert.deepEqual(done!.copied, source);
  // The fork's cards belong to the fork's customers.
  const stray = await s.p.db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM customer_cards c JOIN customers u ON u.id = c.customer_id WHERE c.group_id = ? AND u.group_id <> ?',
    [forkId, forkId],
  );
  assert.equal(stray!.n, 0);
  // The map is forgotten in chunks too, then the fork is over.
  for (;;) {
    const step = await s.p.db.write((tx) => tx.repos.groupRows.forkChunk(tx, forkId, fresh, () => true));
    if (!step || step.phase === 'over') break;
  }
  assert.equal((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM fork_map WHERE fork_id = ?', [forkId]))!.n, 0);
  assert.equal(await s.p.db.repos.groupRows.forkProgress(s.p.db, forkId), undefined);
});

test("another group's sale is answered while a large fork is under way; the fork then answers with the same rows", async () => {
  const big = await newSandbox(s, { demo: true });
  await addCustomers(big, 40_000);
  const other = await newSandbox(s);
  const forking = s.call('POST', `/api/v1/sandboxes/${big.group_id}/fork`, { key: ADMIN, body: { name: 'big fork' } });
  const underWay = async () => (await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM fork_jobs WHERE source_id = ?', [big.group_id]))!.n;
  while ((await underWay()) === 0) await new Promise((r) => setTimeout(r, 1));
  const sale = await s.call('POST', `/api/v1/groups/${other.group_id}/transaction`, { key: other.keys.manage_transactions, body: saleBody(other.processor_id) });
  assert.equal(sale.status, 200, sale.text);
  assert.equal(await underWay(), 1, "the sale was answered before the fork's end");
  const r = await forking;
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.rows.customers, 40_000 + 1);
  assert.deepEqual(await counts(r.body.group_id), await counts(big.group_id));
  assert.equal(await underWay(), 0);
  const listed = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.map((g: { group_id: string }) => g.group_id);
  assert.ok(listed.includes(r.body.group_id));
});
