// Webhooks over HTTP against a real receiver on a real port: endpoint CRUD and its
// refusals, every delivery verified with the standardwebhooks library (a verifier
// nobody here wrote), retries on the group's clock with every attempt listed, sandbox
// clocks kept apart, resend, and two senders on one database never sending one
// attempt twice.
import '../helpers/env.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody, cardTokenBody } from '../helpers/bodies.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { deliverDue } from '../../src/services/webhooks/delivery.js';
import { deliveriesSettled } from '../../src/services/webhooks/delivery-loop.js';
import { openPlatform } from '../../src/services/platform.js';
import { webhookAttemptSchema, webhookEndpointSchema } from '../../src/domain/webhooks.js';

let s: TestServer;
let rx: Receiver;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
  rx = await startReceiver();
});
after(async () => {
  await s.close();
  await rx.close();
});

const hooksPath = (g: string) => `/api/v1/groups/${g}/webhook_endpoints`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function createEndpoint(group: string, key: string, body: Record<string, unknown>): Promise<Json> {
  const r = await s.call('POST', hooksPath(group), { key, body });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function attempts(group: string, key: string, endpointId: string, query = ''): Promise<Json[]> {
  const r = await s.call('GET', `${hooksPath(group)}/${endpointId}/deliveries${query}`, { key });
  assert.equal(r.status, 200, r.text);
  for (const a of r.body.data.items) assert.ok(webhookAttemptSchema.safeParse(a).success, JSON.stringify(a));
  return r.body.data.items;
}

describe('webhook endpoints', () => {
  test('create shows the secret once; get, list, patch, rotate and delete', async () => {
    const key = s.demo.keys.manage_webhooks!;
    const g = s.demo.group_id;
    const created = await createEndpoint(g, key, { url: 'https://example.com/hooks', enabled_events: ['transaction.*', 'invoice.paid'], description: 'shop' });
    assert.ok(webhookEndpointSchema.safeParse(created).success);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(created.enabled_events, ['transaction.*', 'invoice.paid']);
    assert.equal(created.disabled, false);
    const got = await s.call('GET', `${hooksPath(g)}/${created.id}`, { key });
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined, 'the secret is not shown again');
    const { secret: _secret, ...withoutSecret } = created;
    assert.deepEqual(got.body, withoutSecret);
    const list = await s.call('GET', hooksPath(g), { key });
    assert.ok(list.body.data.items.some((e: Json) => e.id === created.id && e.secret === undefined));

    const patched = await s.call('PATCH', `${hooksPath(g)}/${created.id}`, { key, body: { disabled: true, enabled_events: ['*'] } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.disabled, true);
    assert.deepEqual(patched.body.enabled_events, ['*']);
    assert.equal(patched.body.url, 'https://example.com/hooks');
    assert.equal(patched.body.description, 'shop');

    const rotated = await s.call('POST', `${hooksPath(g)}/${created.id}/rotate_secret`, { key });
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, created.secret);

    const del = await s.call('DELETE', `${hooksPath(g)}/${created.id}`, { key });
    assert.deepEqual(del.body, { id: created.id, deleted: true });
    assert.equal((await s.call('GET', `${hooksPath(g)}/${created.id}`, { key })).status, 404);
    assert.equal((await s.call('DELETE', `${hooksPath(g)}/${created.id}`, { key })).status, 404);
  });

  test('refusals: non-http(s) URL, unknown event type, unknown field, empty patch (400 naming the field); other permissions 403', async () => {
    const key = s.demo.keys.manage_webhooks!;
    const g = s.demo.group_id;
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '']) {
      const r = await s.call('POST', hooksPath(g), { key, body: { url, enabled_events: ['*'] } });
      assert.equal(r.status, 400, `${url}: ${r.text}`);
      assert.equal(r.body.error.fields[0].path, 'url');
      assert.match(r.body.error.fields[0].message, /http/);
    }
    const badType = await s.call('POST', hooksPath(g), { key, body: { url: 'https://example.com', enabled_events: ['transaction.*', 'transaction.exploded'] } });
    assert.equal(badType.status, 400);
    assert.equal(badType.body.error.fields[0].path, 'enabled_events.1');
    assert.match(badType.body.error.fields[0].message, /not an event type/);
    const badFamily = await s.call('POST', hooksPath(g), { key, body: { url: 'https://example.com', enabled_events: ['nothing.*'] } });
    assert.equal(badFamily.body.error.fields[0].path, 'enabled_events.0');
    const none = await s.call('POST', hooksPath(g), { key, body: { url: 'https://example.com', enabled_events: [] } });
    assert.equal(none.body.error.fields[0].path, 'enabled_events');
    const extra = await s.call('POST', hooksPath(g), { key, body: { url: 'https://example.com', enabled_events: ['*'], secret: 'whsec_mine' } });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.error.fields[0].path, 'secret');
    const made = await createEndpoint(g, key, { url: 'https://example.com/a', enabled_events: ['*'] });
    const emptyPatch = await s.call('PATCH', `${hooksPath(g)}/${made.id}`, { key, body: {} });
    assert.equal(emptyPatch.status, 400, emptyPatch.text);
    const badPatch = await s.call('PATCH', `${hooksPath(g)}/${made.id}`, { key, body: { url: 'gopher://x' } });
    assert.equal(badPatch.body.error.fields[0].path, 'url');

    const other = s.demo.keys.manage_transactions!;
    for (const [method, path] of [
      ['POST', hooksPath(g)],
      ['GET', hooksPath(g)],
      ['GET', `${hooksPath(g)}/${made.id}`],
      ['PATCH', `${hooksPath(g)}/${made.id}`],
      ['DELETE', `${hooksPath(g)}/${made.id}`],
      ['POST', `${hooksPath(g)}/${made.id}/rotate_secret`],
      ['GET', `${hooksPath(g)}/${made.id}/deliveries`],
    ] as const) {
      const r = await s.call(method, path, { key: other, ...(method === 'POST' || method === 'PATCH' ? { body: { url: 'https://example.com', enabled_events: ['*'] } } : {}) });
      assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
      assert.match(r.body.error.message, /manage_webhooks/);
    }
    await s.call('DELETE', `${hooksPath(g)}/${made.id}`, { key });
  });

  test("another group's endpoint is not found", async () => {
    const a = await newSandbox(s);
    const b = await newSandbox(s);
    const e = await createEndpoint(a.group_id, a.keys.manage_webhooks!, { url: 'https://example.com/a', enabled_events: ['*'] });
    assert.equal((await s.call('GET', `${hooksPath(b.group_id)}/${e.id}`, { key: b.keys.manage_webhooks })).status, 404);
    assert.equal((await s.call('GET', `${hooksPath(a.group_id)}/${e.id}`, { key: b.keys.manage_webhooks })).status, 403);
  });
});

describe('deliveries', () => {
  test('a sale is POSTed to the subscribed endpoint, signed: standardwebhooks verifies it; a tampered body or an old timestamp fails', async () => {
    const sb = await newSandbox(s);
    const endpoint = await createEndpoint(sb.group_id, sb.keys.manage_webhooks!, { url: rx.url, enabled_events: ['transaction.*'] });
    // Not subscribed: customer.created is not delivered to it.
    await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Not', last_name: 'Sent' } });
    const before = rx.received.length;
    const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
    assert.equal(sale.status, 200, sale.text);
    await rx.waitFor(before + 1);
    await deliveriesSettled(s.p);
    const got = rx.received.slice(before);
    assert.equal(got.length, 1, 'one delivery: the sale, not the customer');
    const msg = got[0]!;
    const wh = new Webhook(endpoint.secret);
    const payload = wh.verify(msg.body, msg.headers) as Json;
    assert.equal(payload.type, 'transaction.approved');
    assert.deepEqual(payload.data.object, sale.body);
    const event = await s.call('GET', `/api/v1/groups/${sb.group_id}/events/${payload.id}`, { key: sb.keys.manage_webhooks });
    assert.equal(msg.body, JSON.stringify(event.body), 'the body is the event exactly as the API answers it');
    assert.equal(msg.headers['webhook-id'], payload.id);
    assert.match(msg.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(msg.headers['content-type'], 'application/json');

    assert.throws(() => wh.verify(msg.body.replace('"transaction.approved"', '"transaction.declined"'), msg.headers), /No matching signature/);
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(msg.body, msg.headers), /No matching signature/);
    // Correctly signed, but 10 minutes old: refused as a replay.
    const old = new Date(Date.now() - 10 * 60_000);
    const oldHeaders = { ...msg.headers, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': wh.sign(payload.id, old, msg.body) };
    assert.throws(() => wh.verify(msg.body, oldHeaders), /too old/);

    const list = await attempts(sb.group_id, sb.keys.manage_webhooks!, endpoint.id);
    assert.equal(list.length, 1);
    assert.equal(list[0].status, 'succeeded');
    assert.equal(list[0].response_status, 200);
    assert.equal(list[0].response_body, 'ok');
    assert.equal(list[0].attempt, 1);
    assert.equal(list[0].event_id, payload.id);
    assert.equal(list[0].next_attempt_at, null);
    assert.equal(typeof list[0].latency_ms, 'number');
  });

  test('no delivered body carries a full card number or CVV', async () => {
    const sb = await newSandbox(s);
    const endpoint = await createEndpoint(sb.group_id, sb.keys.manage_webhooks!, { url: rx.url, enabled_events: ['*'] });
    const before = rx.received.length;
    const tok = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody('5555555555554444', '987') });
    const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, { token: tok.body.token }) });
    assert.equal(sale.status, 200, sale.text);
    await rx.waitFor(before + 1);
    await deliveriesSettled(s.p);
    const bodies = rx.received.slice(before).map((m) => m.body);
    const wh = new Webhook(endpoint.secret);
    for (const m of rx.received.slice(before)) wh.verify(m.body, m.headers);
    assert.ok(!bodies.join('').includes('5555555555554444'));
    assert.ok(!/"cvv":"987"/.test(bodies.join('')));
  });

  test("retries on the group's clock: 500 then 200 after the clock moves 5 s; another sandbox's retry waits for its own clock", async () => {
    const failing = await startReceiver((_, n) => (n <= 2 ? { status: 500, body: 'down for maintenance' } : { status: 200, body: 'ok' }));
    try {
      const a = await newSandbox(s);
      const b = await newSandbox(s);
      const ea = await createEndpoint(a.group_id, a.keys.manage_webhooks!, { url: failing.url, enabled_events: ['customer.created'] });
      const eb = await createEndpoint(b.group_id, b.keys.manage_webhooks!, { url: failing.url, enabled_events: ['customer.created'] });
      for (const sb of [a, b]) {
        const r = await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Re', last_name: 'Try' } });
        assert.equal(r.status, 200, r.text);
      }
      await failing.waitFor(2);
      await deliveriesSettled(s.p);
      const [first] = await attempts(a.group_id, a.keys.manage_webhooks!, ea.id);
      assert.equal(first.status, 'failed');
      assert.equal(first.response_status, 500);
      assert.equal(first.response_body, 'down for maintenance');
      assert.match(first.error, /500/);
      assert.equal(Date.parse(first.next_attempt_at) - Date.parse(first.scheduled_at), 5_000, 'the second attempt is due 5 s later');

      // Moving a's clock 4 s: nothing due yet.
      await moveClock(a, '4s');
      assert.equal((await attempts(a.group_id, a.keys.manage_webhooks!, ea.id)).length, 1);
      await moveClock(a, '2s');
      const listA = await attempts(a.group_id, a.keys.manage_webhooks!, ea.id);
      assert.deepEqual(listA.map((x) => [x.attempt, x.status, x.response_status]), [[2, 'succeeded', 200], [1, 'failed', 500]], 'newest first');
      const verified = new Webhook(ea.secret).verify(failing.received[2]!.body, failing.received[2]!.headers) as Json;
      assert.equal(verified.id, first.event_id, 'the retry carries the same webhook-id (the event id)');
      // b's clock did not move: its retry still waits.
      assert.equal((await attempts(b.group_id, b.keys.manage_webhooks!, eb.id)).length, 1);
      assert.equal(failing.received.length, 3);
      await moveClock(b, '5s');
      assert.equal((await attempts(b.group_id, b.keys.manage_webhooks!, eb.id))[0].status, 'succeeded');
    } finally {
      await failing.close();
    }
  });

  test('a receiver that keeps failing gets the whole schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then the delivery has failed', async () => {
    const down = await startReceiver(() => ({ status: 503 }));
    try {
      const sb = await newSandbox(s);
      const e = await createEndpoint(sb.group_id, sb.keys.manage_webhooks!, { url: down.url, enabled_events: ['customer.*'] });
      await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Never', last_name: 'Up' } });
      await down.waitFor(1);
      await deliveriesSettled(s.p);
      await moveClock(sb, '3d');
      const list = await attempts(sb.group_id, sb.keys.manage_webhooks!, e.id);
      assert.equal(list.length, 8);
      const chrono = [...list].reverse();
      const gaps = chrono.slice(1).map((x, i) => (Date.parse(x.scheduled_at) - Date.parse(chrono[i]!.scheduled_at)) / 1000);
      assert.deepEqual(gaps, [5, 300, 1800, 7200, 18000, 36000, 36000]);
      assert.equal(list[0].next_attempt_at, null, 'after the eighth attempt nothing more is due');
      await moveClock(sb, '30d');
      assert.equal((await attempts(sb.group_id, sb.keys.manage_webhooks!, e.id)).length, 8);
      assert.equal(down.received.length, 8);
    } finally {
      await down.close();
    }
  });

  test('resend: every subscribed endpoint or the one named; the event again, with the same id', async () => {
    const sb = await newSandbox(s);
    const key = sb.keys.manage_webhooks!;
    const e1 = await createEndpoint(sb.group_id, key, { url: rx.url, enabled_events: ['customer.created'] });
    const e2 = await createEndpoint(sb.group_id, key, { url: rx.url, enabled_events: ['invoice.*'] });
    const before = rx.received.length;
    await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Re', last_name: 'Send' } });
    await rx.waitFor(before + 1);
    await deliveriesSettled(s.p);
    const eventId = rx.received[before]!.headers['webhook-id']!;
    const all = await s.call('POST', `/api/v1/groups/${sb.group_id}/events/${eventId}/resend`, { key });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body, { event_id: eventId, endpoint_ids: [e1.id] });
    const one = await s.call('POST', `/api/v1/groups/${sb.group_id}/events/${eventId}/resend`, { key, body: { endpoint_id: e2.id } });
    assert.deepEqual(one.body.endpoint_ids, [e2.id]);
    await rx.waitFor(before + 3);
    await deliveriesSettled(s.p);
    const again = rx.received.slice(before + 1);
    assert.equal(again.length, 2);
    new Webhook(e1.secret).verify(again.find((m) => m.headers['webhook-signature'] && safeVerify(e1.secret, m))!.body, again[0]!.headers);
    assert.ok(again.some((m) => safeVerify(e2.secret, m)), 'the one sent to e2 is signed with e2\'s secret');
    assert.ok(again.every((m) => m.headers['webhook-id'] === eventId));
    assert.equal((await attempts(sb.group_id, key, e1.id)).length, 2);
    assert.equal((await s.call('POST', `/api/v1/groups/${sb.group_id}/events/${eventId}/resend`, { key, body: { endpoint_id: '00000000-0000-7000-8000-000000000000' } })).status, 404);
    assert.equal((await s.call('POST', `/api/v1/groups/${sb.group_id}/events/00000000-0000-7000-8000-000000000000/resend`, { key })).status, 404);
    assert.equal((await s.call('POST', `/api/v1/groups/${sb.group_id}/events/${eventId}/resend`, { key: sb.keys.manage_customers })).status, 403);
  });

  test('a disabled endpoint gets no new deliveries; after a rotation the old secret still verifies for 24 h of the group\'s clock, then only the new one', async () => {
    const sb = await newSandbox(s);
    const key = sb.keys.manage_webhooks!;
    const e = await createEndpoint(sb.group_id, key, { url: rx.url, enabled_events: ['customer.created'], disabled: true });
    const before = rx.received.length;
    await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: 'Off', last_name: 'Line' } });
    await deliveriesSettled(s.p);
    await s.call('PATCH', `${hooksPath(sb.group_id)}/${e.id}`, { key, body: { disabled: false } });
    const rotated = (await s.call('POST', `${hooksPath(sb.group_id)}/${e.id}/rotate_secret`, { key })).body;
    assert.notEqual(rotated.secret, e.secret);
    const deliver = async (name: string) => {
      const n = rx.received.length;
      await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: name, last_name: 'Line' } });
      await rx.waitFor(n + 1);
      await deliveriesSettled(s.p);
      assert.equal(rx.received.length, n + 1);
      return rx.received[n]!;
    };
    const on = await deliver('On');
    assert.equal(rx.received.slice(before).length, 1, 'only the customer created while enabled');
    assert.equal((new Webhook(rotated.secret).verify(on.body, on.headers) as Json).data.object.first_name, 'On');
    // A receiver that holds only the old secret still verifies: two signatures, one per secret.
    assert.equal(on.headers['webhook-signature']!.split(' ').length, 2);
    assert.equal((new Webhook(e.secret).verify(on.body, on.headers) as Json).data.object.first_name, 'On');
    await moveClock(sb, '23h');
    const still = await deliver('Still');
    assert.ok(safeVerify(e.secret, still), 'the old secret verifies 23 h after the rotation');
    assert.ok(safeVerify(rotated.secret, still));
    await moveClock(sb, '1h');
    const late = await deliver('Late');
    assert.equal(late.headers['webhook-signature']!.split(' ').length, 1);
    assert.ok(!safeVerify(e.secret, late), 'the old secret no longer verifies 24 h after the rotation');
    assert.equal((new Webhook(rotated.secret).verify(late.body, late.headers) as Json).data.object.first_name, 'Late');
    // A tampered body fails with either secret.
    assert.ok(!safeVerify(e.secret, { ...still, body: still.body.replace('Still', 'Stall') }));
    assert.ok(!safeVerify(rotated.secret, { ...still, body: still.body.replace('Still', 'Stall') }));
  });

  test('two senders on one database at once: every delivery sent exactly once', async () => {
    const counting = await startReceiver();
    const sb = await newSandbox(s);
    await createEndpoint(sb.group_id, sb.keys.manage_webhooks!, { url: counting.url, enabled_events: ['customer.created'] });
    // A second process's view of the same database file, with its own connections.
    const other = await openPlatform({ db: s.p.db.location, env: {} });
    try {
      // Events appended while the serving process does not deliver (a CLI writing), then two passes at once.
      const n = 60;
      const { createCustomer } = await import('../../src/services/customers/customers.js');
      const { contextFor } = await import('../../src/services/context.js');
      const { forGroup } = await import('../../src/services/platform.js');
      const { execute } = await import('../../src/services/use-case.js');
      const op = await forGroup(other, sb.group_id);
      for (let i = 0; i < n; i++) await execute(createCustomer, op, contextFor(op, sb.group_id), { first_name: `C${i}`, last_name: 'Twice' });
      const [x, y] = await Promise.all([
        deliverDue({ db: other.db, clock: op.clock, env: {} }, { groupId: sb.group_id }),
        deliverDue({ db: s.p.db, clock: op.clock, env: {} }, { groupId: sb.group_id }),
        deliveriesSettled(s.p),
      ]);
      await counting.waitFor(n);
      const ids = counting.received.map((m) => m.headers['webhook-id']);
      assert.equal(new Set(ids).size, n, 'every event delivered');
      assert.equal(ids.length, n, 'none twice');
      assert.equal(x + y, n);
      const dup = await s.p.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM (SELECT delivery_id, attempt FROM webhook_attempts WHERE group_id = ? GROUP BY delivery_id, attempt HAVING COUNT(*) > 1) AS pairs',
        [sb.group_id],
      );
      assert.equal(dup!.n, 0);
    } finally {
      await other.close();
      await counting.close();
    }
  });
});

function safeVerify(secret: string, m: { body: string; headers: Record<string, string> }): boolean {
  try {
    new Webhook(secret).verify(m.body, m.headers);
    return true;
  } catch {
    return false;
  }
}

async function moveClock(sb: SandboxReply, advance: string): Promise<void> {
  const r = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { advance } });
  assert.equal(r.status, 200, r.text);
  await deliveriesSettled(s.p);
}
