// A fork that is not whole within its answer budget (PAYCTL_FORK_ANSWER_MS, 0 here)
// answers 202 with the new sandbox's id and keys, issued when the copy starts, and how
// far the copy is; GET of the sandbox shows its progress until it is active; meanwhile
// its keys, its clock and a fork of it are refused with 409 naming it; afterwards the
// same keys work and the copy equals the source.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addCustomers as addCustomersTo, ADMIN, dumpGroup, forkedCounts, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';
import { forkRunning } from '../../src/services/sandboxes/fork-run.js';
import { fork } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_FORK_ANSWER_MS: '0' } });
});
after(() => s.close());

const addCustomers = (sb: SandboxReply, n: number) => addCustomersTo(s.p.db, sb, n);
const counts = (groupId: string) => forkedCounts(s.p.db, groupId);

const until = async (cond: () => Promise<boolean>, what: string) => {
  for (let i = 0; !(await cond()); i++) {
    assert.ok(i < 20_000, `waited too long for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

test('a large fork past its answer budget: 202 with keys and progress, GET shows forking then active, 409 meanwhile, the keys work after', async () => {
  const big = await newSandbox(s, { demo: true });
  await addCustomers(big, 20_000);
  const r = await s.call('POST', `/api/v1/sandboxes/${big.group_id}/fork`, { key: ADMIN, body: { name: 'slow fork' } });
  assert.equal(r.status, 202, r.text);
  const forked = r.body;
  assert.equal(forked.status, 'forking');
  assert.equal(forked.name, 'slow fork');
  assert.equal(forked.forked_from, big.group_id);
  assert.deepEqual(Object.keys(forked.keys).sort(), [...PERMISSIONS].sort());
  assert.ok(['mapping', 'copying', 'finishing'].includes(forked.fork.phase), forked.fork.phase);
  assert.equal(forked.fork.source_id, big.group_id);
  assert.ok(forked.fork.rows_total >= 20_001, `rows_total ${forked.fork.rows_total}`);
  assert.ok(forked.fork.rows_copied < forked.fork.rows_total);
  const id = forked.group_id as string;

  // While it copies: its keys, its clock and a fork of it are refused, naming it.
  const sale = await s.call('POST', `/api/v1/groups/${id}/transaction`, { key: forked.keys.manage_transactions, body: saleBody(big.processor_id) });
  assert.equal(sale.status, 409, sale.text);
  assert.equal(sale.body.error.type, 'invalid_request');
  assert.match(sale.body.error.message, new RegExp(`sandbox ${id} is still being forked`));
  const clock = await s.call('POST', `/api/v1/sandboxes/${id}/clock`, { key: ADMIN, body: { advance: '1d' } });
  assert.equal(clock.status, 409, clock.text);
  const again = await s.call('POST', `/api/v1/sandboxes/${id}/fork`, { key: ADMIN, body: {} });
  assert.equal(again.status, 409, again.text);
  const listed = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.find((g: { group_id: string }) => g.group_id === id);
  assert.equal(listed?.status, 'forking');

  // GET shows the copy's progress (never backwards) until the sandbox is active.
  const seen: Array<{ status: string; copied: number }> = [];
  await until(async () => {
    const g = await s.call('GET', `/api/v1/sandboxes/${id}`, { key: ADMIN });
    assert.equal(g.status, 200, g.text);
    seen.push({ status: g.body.status, copied: g.body.fork?.rows_copied ?? Infinity });
    if (g.body.status === 'forking') assert.ok(g.body.fork.rows_copied <= g.body.fork.rows_total);
    else assert.equal(g.body.fork, undefined);
    return g.body.status === 'active';
  }, 'the fork to be active');
  assert.equal(seen[0]!.status, 'forking', 'the first GET saw the fork under way');
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.copied >= seen[i - 1]!.copied, 'progress never goes backwards');

  // The keys issued at the start work now, and the copy is the source's.
  const [processor] = await s.p.db.repos.processors.listByGroup(s.p.db, id);
  const paid = await s.call('POST', `/api/v1/groups/${id}/transaction`, { key: forked.keys.manage_transactions, body: saleBody(processor!.id) });
  assert.equal(paid.status, 200, paid.text);
  const before = await counts(big.group_id);
  const copy = await counts(id);
  assert.equal(copy.transactions, before.transactions! + 1);
  assert.deepEqual({ ...copy, transactions: 0 }, { ...before, transactions: 0 });
  const shown = await s.call('GET', `/api/v1/sandboxes/${id}`, { key: ADMIN });
  assert.equal(shown.body.name, 'slow fork');
});

test('a fork dropped while it copies stops: nothing of it is left', async () => {
  const big = await newSandbox(s, { demo: true });
  await addCustomers(big, 10_000);
  const r = await s.call('POST', `/api/v1/sandboxes/${big.group_id}/fork`, { key: ADMIN, body: {} });
  assert.equal(r.status, 202, r.text);
  const id = r.body.group_id as string;
  const dropped = await s.call('DELETE', `/api/v1/sandboxes/${id}`, { key: ADMIN });
  assert.equal(dropped.status, 200, dropped.text);
  await until(async () => !forkRunning(s.p, id), 'the fork run to stop');
  const left = await dumpGroup(s.p.db, id, { traffic: true });
  for (const [table, rows] of Object.entries(left)) assert.equal(rows.length, 0, table);
  assert.equal((await s.p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM fork_map WHERE fork_id = ?', [id]))!.n, 0);
  assert.equal((await s.call('GET', `/api/v1/sandboxes/${id}`, { key: ADMIN })).status, 404);
  const sale = await s.call('POST', `/api/v1/groups/${id}/transaction`, { key: r.body.keys.manage_transactions, body: saleBody(big.processor_id) });
  assert.equal(sale.status, 401, sale.text);
});

test('a small fork within its budget answers 201 whole; an unknown sandbox is a 404', async () => {
  const quick = await startTestServer({ adminToken: ADMIN });
  try {
    const small = (await quick.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: {} })).body;
    const r = await quick.call('POST', `/api/v1/sandboxes/${small.group_id}/fork`, { key: ADMIN, body: {} });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'active');
    assert.ok(r.body.id_map[small.processor_id]);
    const g = await quick.call('GET', `/api/v1/sandboxes/${r.body.group_id}`, { key: ADMIN });
    assert.equal(g.body.status, 'active');
    const paid = await quick.call('POST', `/api/v1/groups/${r.body.group_id}/transaction`, { key: r.body.keys.manage_transactions, body: saleBody(r.body.processor_id) });
    assert.equal(paid.status, 200, paid.text);
    assert.equal((await quick.call('GET', '/api/v1/sandboxes/00000000-0000-7000-8000-000000000000', { key: ADMIN })).status, 404);
  } finally {
    await quick.close();
  }
});

test("the CLI's in-process fork waits for the whole copy and reports its progress (mapping, then copying up to the total)", async () => {
  const big = await newSandbox(s, { demo: true });
  await addCustomers(big, 5_000);
  const reports: Array<{ done: number; total: number; label: string }> = [];
  const forked = await fork(s.p, contextFor(s.p, undefined), { group_id: big.group_id }, { progress: (done, total, label) => reports.push({ done, total, label }) });
  assert.equal(forked.status, 'active');
  assert.ok(reports.some((r) => r.label === 'Mapping ids'), JSON.stringify(reports.slice(0, 3)));
  const copying = reports.filter((r) => r.label === 'Copying rows');
  assert.ok(copying.length > 0);
  for (let i = 1; i < copying.length; i++) assert.ok(copying[i]!.done >= copying[i - 1]!.done);
  const last = copying.at(-1)!;
  assert.equal(last.done, last.total, 'the bar ends full');
  assert.equal(last.total, Object.values(await counts(big.group_id)).reduce((a, b) => a + b, 0), "the total is the source's rows");
});
