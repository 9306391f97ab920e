// Run by frozen-midnight.test.ts under the wall-clock tool (test/helpers/wall-clock.ts),
// with this process's clock started a few seconds before 00:00 UTC: a server whose tick
// runs for real, a frozen sandbox a second before its own midnight, and a running sandbox
// beside it. Across the wall clock's midnight the tick settles the running sandbox's sale
// (so the tick did run past the cutoff) and nothing of the frozen one; only a move of the
// frozen clock past its own midnight settles its sale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

test('a frozen sandbox across 00:00 UTC of the wall clock and of its own clock sees no settlement it did not move to', async () => {
  const wallMidnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
  assert.ok(wallMidnight - Date.now() < 30_000, `started at ${new Date().toISOString()}: run me with PAYCTL_TEST_WALL_CLOCK a few seconds before midnight`);
  const s = await startTestServer({ adminToken: ADMIN, tickMs: 100 });
  try {
    const sale = (sb: SandboxReply) => s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
    const status = async (sb: SandboxReply, id: string) =>
      (await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${id}`, { key: sb.keys.view_transactions })).body.status as string;
    const frozen = await newSandbox(s, { clock: { time: '2030-01-15T23:59:59.000Z', mode: 'frozen' } });
    const running = await newSandbox(s);
    const f = await sale(frozen);
    const r = await sale(running);
    assert.equal(f.body.status, 'pending');
    assert.equal(r.body.status, 'pending');
    // Set up too slowly for this start (a loaded machine, PostgreSQL): the caller starts earlier.
    assert.ok(Date.now() < wallMidnight - 250, 'TOO_LATE: the sales were not made before the wall clock reached midnight');
    // The wall clock crosses 00:00 UTC; the server's tick settles the running sandbox's sale (bounded wait).
    const deadline = wallMidnight + 20_000;
    while ((await status(running, r.body.id)) === 'pending' && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    assert.equal(await status(running, r.body.id), 'settled', 'the tick ran past the cutoff');
    assert.ok(Date.now() > wallMidnight);
    // The frozen sandbox: its clock stood still and its sale did not settle.
    const clock = (await s.call('GET', `/api/v1/sandboxes/${frozen.group_id}/clock`, { key: ADMIN })).body;
    assert.equal(clock.now, '2030-01-15T23:59:59.000Z');
    assert.equal(clock.catch_up.status, 'caught_up');
    assert.equal(await status(frozen, f.body.id), 'pending');
    // Moved across its own midnight: settled by the move.
    const moved = await s.call('POST', `/api/v1/sandboxes/${frozen.group_id}/clock`, { key: ADMIN, body: { advance: '1s' } });
    assert.equal(moved.body.now, '2030-01-16T00:00:00.000Z');
    assert.equal(moved.body.work.settlement, 1);
    assert.equal(await status(frozen, f.body.id), 'settled');
  } finally {
    await s.close();
  }
});
