// The claim and the record of a delivery pass, when another sender gets in between: the
// pass's compare-and-sets travel with the writer's batch and expect every delivery they
// name, so these are the cases where they do not find them as read — another process
// sent the attempt after this one read it (this one must send nothing), or took the lease
// while this one was sending (the attempt made must still be recorded). Two platforms on
// one database file stand for the two processes (serve and a CLI `clock advance`); the
// other sender runs at a chosen point (inside the read, inside the receiver's answer).
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { createCustomer } from '../../src/services/customers/customers.js';
import { createWebhookEndpoint, listWebhookAttempts } from '../../src/services/webhooks/endpoints.js';
import { deliverDue } from '../../src/services/webhooks/delivery.js';
import { webhookSendRepo } from '../../src/store/sql/repositories/webhook-sends.js';

async function setup(url: string, customers: number) {
  const { p, demo } = await demoPlatform();
  const ctx = contextFor(p, demo.group_id);
  const endpoint = await execute(createWebhookEndpoint, p, ctx, { url, enabled_events: ['customer.created'] });
  for (let i = 0; i < customers; i++) await execute(createCustomer, p, ctx, { first_name: `C${i}`, last_name: 'Claim' });
  // A second process's view of the same file, with its own connections.
  const other = await openPlatform({ db: p.db.location, env: {} });
  const pass = (q: Platform) => deliverDue({ db: q.db, clock: q.clock, env: {} }, { groupId: demo.group_id });
  const attempts = async () =>
    (await execute(listWebhookAttempts, p, ctx, { endpoint_id: endpoint.id, limit: 100 })).data.items;
  return { p, other, pass, attempts, close: async () => (await other.close(), await p.close()) };
}

test('a pass whose deliveries another sender sent after it read them sends none of them again', async () => {
  const rx = await startReceiver();
  const n = 5;
  const w = await setup(rx.url, n);
  const due = webhookSendRepo.due;
  let otherSent = 0;
  try {
    // The other process runs its whole pass (claim, send, record) between this pass's read and its claim.
    webhookSendRepo.due = async (...args) => {
      const rows = await due(...args);
      webhookSendRepo.due = due;
      if (rows.length > 0) otherSent = await w.pass(w.other);
      return rows;
    };
    const sent = await w.pass(w.p);
    assert.equal(otherSent, n);
    assert.equal(sent, 0, 'the claim found every delivery already sent');
    assert.equal(rx.received.length, n, 'each event reached the receiver once');
    assert.equal(new Set(rx.received.map((r) => r.headers['webhook-id'])).size, n);
    const listed = await w.attempts();
    assert.equal(listed.length, n, 'one attempt each');
    assert.ok(listed.every((a) => a.attempt === 1 && a.status === 'succeeded'));
  } finally {
    webhookSendRepo.due = due;
    await w.close();
    await rx.close();
  }
});

test('a pass that lost a lease while sending still records the attempt it made; the delivery stays with the new holder', async () => {
  let w: Awaited<ReturnType<typeof setup>> | undefined;
  // While the first request is answered, the other process takes that delivery's lease
  // (as if this one's had run out).
  const rx = await startReceiver(async (_r, k) => {
    if (k === 1) await w!.other.db.write((tx) => tx.run("UPDATE webhook_deliveries SET lease_owner = 'another sender', lease_until = ? WHERE id = (SELECT MIN(id) FROM webhook_deliveries)", [Date.now() + 60_000]));
    return { status: 200, body: 'ok' };
  });
  w = await setup(rx.url, 2);
  try {
    assert.equal(await w.pass(w.p), 2);
    const listed = await w.attempts();
    assert.equal(listed.length, 2, 'both attempts recorded');
    assert.ok(listed.every((a) => a.status === 'succeeded' && a.response_status === 200));
    const rows = await w.p.db.all<{ status: string; lease_owner: string | null }>('SELECT status, lease_owner FROM webhook_deliveries ORDER BY id');
    assert.deepEqual(rows, [
      { status: 'pending', lease_owner: 'another sender' },
      { status: 'succeeded', lease_owner: null },
    ]);
  } finally {
    await w.close();
    await rx.close();
  }
});

test('a pass claims only the attempt it read: a delivery whose attempt moved on is left to its next turn', async () => {
  const rx = await startReceiver(() => ({ status: 503, body: 'down' }));
  const w = await setup(rx.url, 1);
  const due = webhookSendRepo.due;
  try {
    // Read at attempt 0; meanwhile the other process makes attempt 1 (it fails) and its retry is due in 5 s.
    webhookSendRepo.due = async (...args) => {
      const rows = await due(...args);
      webhookSendRepo.due = due;
      await w.pass(w.other);
      return rows;
    };
    assert.equal(await w.pass(w.p), 0);
    assert.equal(rx.received.length, 1, 'the retry was not sent early');
    const listed = await w.attempts();
    assert.deepEqual(listed.map((a) => [a.attempt, a.status]), [[1, 'failed']]);
  } finally {
    webhookSendRepo.due = due;
    await w.close();
    await rx.close();
  }
});
