// One tenant's bad data harms only that tenant (docs/operations.md, "One group's failing
// work"): a group whose due work throws — here a row the API never makes, written straight
// into the database — is said once on stderr with its id and the cause and backs off,
// while another sandbox's sale settles on the next tick, whether the two share a clock
// offset (one pass for both) or not. And a list that spans groups answers for every row
// when one row is odd.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';
import { failureDomains } from '../../src/services/clock/failure-domains.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const DAY = 86_400_000;

/** What the server writes to stderr while `fn` runs. */
async function stderrOf<T>(fn: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const write = process.stderr.write.bind(process.stderr);
  const lines: string[] = [];
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), lines };
  } finally {
    process.stderr.write = write;
  }
}

async function saleIn(sb: SandboxReply): Promise<string> {
  const r = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
  assert.equal(r.status, 200, r.text);
  return r.body.id as string;
}

const statusOf = async (id: string) => (await s.p.db.get<{ status: string }>('SELECT status FROM transactions WHERE id = ?', [id]))!.status;
const offsetOf = async (groupId: string) => Number((await s.p.db.get<{ o: number }>('SELECT clock_offset_ms AS o FROM groups WHERE id = ?', [groupId]))!.o);
const setOffset = (groupId: string, offset: number) => s.p.db.write((tx) => tx.run('UPDATE groups SET clock_offset_ms = ? WHERE id = ?', [offset, groupId]));

/** A pending sale of `bad` made odd straight in the database: a creation time no API call writes, which settlement cannot place in a day. */
const spoil = (id: string) =>
  s.p.db.write(async (tx) => {
    // On PostgreSQL the reporting rollup's trigger would refuse the row (no day): written as a restore tool would, triggers off.
    if (tx.dialect.skipLocked) await tx.run('SET LOCAL session_replication_role = replica');
    await tx.run("UPDATE transactions SET created_at = '-infinity' WHERE id = ?", [id]);
  });

for (const shared of [true, false]) {
  test(`a group whose due work throws is logged once and backs off; another sandbox's sale settles on the next tick (${shared ? 'one clock offset for both' : 'offsets of their own'})`, async () => {
    const bad = await newSandbox(s, { name: 'bad data', clock: '2026-03-15T12:00:00Z' });
    const good = await newSandbox(s, { name: 'good data', clock: '2026-03-15T12:00:00Z' });
    await spoil(await saleIn(bad));
    const sale = await saleIn(good);
    // Both a day and a half on: each sale's cutoff has passed. The bad group's pass comes first.
    const offset = (await offsetOf(bad.group_id)) + 1.5 * DAY;
    await setOffset(bad.group_id, offset);
    await setOffset(good.group_id, shared ? offset : offset + 60_000);

    const first = await stderrOf(() => runDueWork(s.p));
    assert.equal(await statusOf(sale), 'settled', "the other sandbox's sale settles");
    const said = first.lines.filter((l) => l.includes(`due work of group ${bad.group_id} failed`));
    assert.equal(said.length, 1, first.lines.join(''));
    assert.match(said[0]!, /RangeError/);
    assert.ok(failureDomains(s.p.db).waiting(bad.group_id), 'the failing group backs off');

    // The next ticks: the other groups' work goes on; the failing one is not said again.
    const sale2 = await saleIn(good);
    await setOffset(good.group_id, (await offsetOf(good.group_id)) + DAY);
    if (shared) await setOffset(bad.group_id, await offsetOf(good.group_id));
    const second = await stderrOf(() => runDueWork(s.p));
    assert.equal(await statusOf(sale2), 'settled');
    assert.equal(second.lines.filter((l) => l.includes(bad.group_id)).length, 0, second.lines.join(''));

    // Dropped, it is forgotten (and nothing fails any more).
    assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${bad.group_id}`, { key: ADMIN })).status, 200);
    await runDueWork(s.p);
    await s.call('DELETE', `/api/v1/sandboxes/${good.group_id}`, { key: ADMIN });
  });
}

test('GET /api/v1/sandboxes answers for every row when one has a clock no API call makes (+275760-09-13)', async () => {
  const odd = await newSandbox(s, { name: 'odd clock' });
  const fine = await newSandbox(s, { name: 'fine' });
  await setOffset(odd.group_id, 8.64e15 - Date.now());
  const r = await s.call('GET', '/api/v1/sandboxes', { key: ADMIN });
  assert.equal(r.status, 200, r.text);
  const rows = r.body.data as Array<{ group_id: string; clock: string }>;
  assert.equal(rows.find((x) => x.group_id === odd.group_id)?.clock, '9999-12-31T23:59:59.999Z');
  assert.ok(rows.some((x) => x.group_id === fine.group_id));
});
