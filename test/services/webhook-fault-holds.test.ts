// A webhook fault that holds a delivery back (delay) holds it once: the mark is on the
// delivery row, so the next attempt is sent whoever makes it — the same process after a
// restart (the database reopened) or another server on the same database.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { createCustomer } from '../../src/services/customers/customers.js';
import { createWebhookEndpoint, listWebhookAttempts } from '../../src/services/webhooks/endpoints.js';
import { addWebhookFaultRule } from '../../src/services/faults/webhook-rules.js';
import { deliverDue } from '../../src/services/webhooks/delivery.js';

/** A delivery held by a `delay` rule without first/count (it would hold every attempt it saw). */
async function heldDelivery(rx: Receiver) {
  const { p, demo } = await demoPlatform();
  const ctx = contextFor(p, demo.group_id);
  const endpoint = await execute(createWebhookEndpoint, p, ctx, { url: rx.url, enabled_events: ['customer.created'] });
  await execute(addWebhookFaultRule, p, ctx, { group_id: demo.group_id, endpoint_id: endpoint.id, action: 'delay', delay: '1h' });
  await execute(createCustomer, p, ctx, { first_name: 'Held', last_name: 'Once' });
  const pass = (q: Platform, until?: Date) => deliverDue({ db: q.db, clock: q.clock, env: {} }, { groupId: demo.group_id }, until);
  const attempts = async (q: Platform) =>
    (await execute(listWebhookAttempts, q, contextFor(q, demo.group_id), { endpoint_id: endpoint.id, limit: 100 })).data.items.reverse();
  assert.equal(await pass(p), 1);
  const [held] = await attempts(p);
  assert.equal(held?.status, 'held');
  assert.equal(rx.received.length, 0, 'nothing sent while held');
  // Past the hold: the delivery is due again.
  const past = new Date(Date.parse(held.next_attempt_at!) + 1000);
  return { p, pass, attempts, past };
}

test('a held delivery is not held again after the database is reopened (a restart)', async () => {
  const rx = await startReceiver();
  const h = await heldDelivery(rx);
  await h.p.close();
  const again = await openPlatform({ db: h.p.db.location, env: {} });
  try {
    assert.equal(await h.pass(again, h.past), 1);
    assert.deepEqual((await h.attempts(again)).map((a) => [a.attempt, a.status]), [[1, 'held'], [1, 'succeeded']], 'held once, then sent');
    assert.equal(rx.received.length, 1);
  } finally {
    await again.close();
    await rx.close();
  }
});

test('a delivery held by one server is not held again when another server on the same database sends it', async () => {
  const rx = await startReceiver();
  const h = await heldDelivery(rx);
  const other = await openPlatform({ db: h.p.db.location, env: {} });
  try {
    assert.equal(await h.pass(other, h.past), 1);
    assert.deepEqual((await h.attempts(h.p)).map((a) => [a.attempt, a.status]), [[1, 'held'], [1, 'succeeded']], 'held once, then sent by the other server');
    assert.equal(rx.received.length, 1);
  } finally {
    await other.close();
    await h.p.close();
    await rx.close();
  }
});
