// The webhook inbox (docs/testing.md, "The webhook inbox") against the real server: a
// sandbox made with webhooks "collect" keeps each delivery as it would have been sent —
// the body byte for byte what a real receiver gets for the same event, the Standard
// Webhooks headers verified with the standardwebhooks package and the secret of the create
// answer; an endpoint of kind collect does the same; a fork and an import keep collecting.
import '../helpers/env.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { ADMIN, newSandbox, noonToday, type SandboxReply } from '../helpers/sandboxes.js';
import { inboxListSchema, webhookEndpointSchema } from '../../src/domain/webhooks.js';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const inbox = (g: string, query = '') => `/api/v1/sandboxes/${g}/inbox${query}`;
const hooks = (g: string) => `/api/v1/groups/${g}/webhook_endpoints`;
const customer = (sb: SandboxReply, name: string) =>
  s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, { key: sb.keys.manage_customers, body: { first_name: name, last_name: 'Lovelace' } });

/** The inbox once it holds `count` messages (of `types`), waited for by the server. */
async function collected(g: string, count: number, types = 'customer.*', key = ADMIN): Promise<Json[]> {
  const r = await s.call('GET', inbox(g, `?types=${types}&wait=20s&count=${count}`), { key });
  assert.equal(r.status, 200, r.text);
  assert.ok(inboxListSchema.safeParse(r.body).success, r.text);
  assert.equal(r.body.data.items.length, count, r.text);
  return r.body.data.items;
}

/** A message checked as any receiver checks it: the standardwebhooks package over the raw body. */
function verified(m: Json, secret: string): Json {
  return new Webhook(secret).verify(m.body, m.headers);
}

describe('a sandbox made with webhooks: collect', () => {
  test('keeps each delivery as sent: the raw body is byte-equal to what a receiver gets, and the signature verifies', async () => {
    const sb = await newSandbox(s, { webhooks: 'collect', clock: noonToday() });
    assert.match(String(sb.webhook_secret), /^whsec_[A-Za-z0-9+/]{43}=$/);
    // A real receiver for the same events, to compare bytes with.
    const url = await s.call('POST', hooks(sb.group_id), { key: sb.keys.manage_webhooks, body: { url: rx.url, enabled_events: ['customer.*'] } });
    assert.equal(url.status, 200, url.text);
    const made = await customer(sb, 'Ada');
    const [m] = await collected(sb.group_id, 1);
    const event = verified(m, String(sb.webhook_secret));
    assert.equal(event.type, 'customer.created');
    assert.equal(event.data.object.id, made.body.id);
    assert.equal(m.event_id, event.id);
    assert.equal(m.headers['webhook-id'], event.id);
    assert.equal(m.headers['content-type'], 'application/json');
    assert.equal(m.endpoint_id, sb.webhook_endpoint_id);
    // The body is the event as the API answers it, and what the receiver got, byte for byte.
    const got = await s.call('GET', `/api/v1/groups/${sb.group_id}/events/${event.id}`, { key: sb.keys.manage_webhooks });
    assert.equal(m.body, got.text);
    await rx.waitUntil((all) => all.some((d) => d.headers['webhook-id'] === event.id));
    const received = rx.received.find((d) => d.headers['webhook-id'] === event.id)!;
    assert.equal(Buffer.from(m.body, 'utf8').equals(Buffer.from(received.body, 'utf8')), true);
    // Signed with this sandbox's secret, not any other's.
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(m.body, m.headers));
    assert.throws(() => verified({ ...m, body: m.body.replace('Ada', 'Eve') }, String(sb.webhook_secret)));
  });

  test('newest first, filtered by type, paged with starting_after', async () => {
    const sb = await newSandbox(s, { webhooks: 'collect', clock: noonToday() });
    for (const name of ['A', 'B', 'C']) await customer(sb, name);
    const all = await collected(sb.group_id, 3);
    // In the order they were delivered, newest first; deliveries close together may arrive in either order, as at any receiver.
    assert.deepEqual(all.map((m) => JSON.parse(m.body).data.object.first_name).sort(), ['A', 'B', 'C']);
    assert.deepEqual(all.map((m) => m.id), all.map((m) => m.id).sort().reverse());
    const page = await s.call('GET', inbox(sb.group_id, `?limit=1&starting_after=${all[0].id}`), { key: ADMIN });
    assert.equal(page.body.data.items[0].id, all[1].id);
    assert.equal(page.body.data.has_more, true);
    const none = await s.call('GET', inbox(sb.group_id, '?types=transaction.settled'), { key: ADMIN });
    assert.deepEqual(none.body.data, { items: [], has_more: false });
  });

  test('who may read it: the admin token or a manage_webhooks key of the group', async () => {
    const sb = await newSandbox(s, { webhooks: 'collect' });
    const other = await newSandbox(s);
    assert.equal((await s.call('GET', inbox(sb.group_id), { key: sb.keys.manage_webhooks })).status, 200);
    assert.equal((await s.call('GET', inbox(sb.group_id), { key: other.keys.manage_webhooks })).status, 403);
    assert.equal((await s.call('GET', inbox(sb.group_id))).status, 401);
    assert.equal((await s.call('GET', inbox('01a20756-d5fa-756e-a6a4-372d34e94d09'), { key: ADMIN })).status, 404);
    const bad = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: { webhooks: 'send' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields[0].path, 'webhooks');
  });
});

describe('an endpoint of kind collect', () => {
  test('is made, shown and refused like the rest: no url, its secret shown once', async () => {
    const sb = await newSandbox(s, { clock: noonToday() });
    const key = sb.keys.manage_webhooks!;
    const made = await s.call('POST', hooks(sb.group_id), { key, body: { kind: 'collect', enabled_events: ['customer.created'] } });
    assert.equal(made.status, 200, made.text);
    assert.ok(webhookEndpointSchema.safeParse(made.body).success);
    assert.equal(made.body.kind, 'collect');
    assert.equal(made.body.url, inbox(sb.group_id));
    const shown = await s.call('GET', `${hooks(sb.group_id)}/${made.body.id}`, { key });
    assert.equal(shown.body.secret, undefined);
    for (const [body, message] of [
      [{ kind: 'collect', url: rx.url, enabled_events: ['*'] }, /has no url/],
      [{ enabled_events: ['*'] }, /is required/],
    ] as const) {
      const r = await s.call('POST', hooks(sb.group_id), { key, body });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.fields[0].path, 'url');
      assert.match(r.body.error.fields[0].message, message);
    }
    const patched = await s.call('PATCH', `${hooks(sb.group_id)}/${made.body.id}`, { key, body: { url: rx.url } });
    assert.equal(patched.status, 400);
    assert.equal(patched.body.error.fields[0].path, 'url');
    await customer(sb, 'Ada');
    const [m] = await collected(sb.group_id, 1);
    assert.equal(verified(m, made.body.secret).type, 'customer.created');
    // Deleted, it takes its messages with it.
    assert.equal((await s.call('DELETE', `${hooks(sb.group_id)}/${made.body.id}`, { key })).status, 200);
    assert.deepEqual((await s.call('GET', inbox(sb.group_id), { key: ADMIN })).body.data.items, []);
    // A url endpoint's answer says its kind too.
    const urlEndpoint = await s.call('POST', hooks(sb.group_id), { key, body: { url: rx.url, enabled_events: ['*'] } });
    assert.equal(urlEndpoint.body.kind, 'url');
  });
});

test("the endpoint's faults apply: a duplicate is kept twice, a bad signature is kept, refused and retried", async () => {
  const sb = await newSandbox(s, { webhooks: 'collect', clock: noonToday() });
  const faults = `${hooks(sb.group_id)}/${sb.webhook_endpoint_id}/faults`;
  const key = sb.keys.manage_webhooks!;
  assert.equal((await s.call('POST', faults, { key, body: { action: 'duplicate', first: 1 } })).status, 201);
  await customer(sb, 'Twice');
  const twice = await collected(sb.group_id, 2);
  assert.equal(twice[0].headers['webhook-id'], twice[1].headers['webhook-id']);
  assert.equal(twice[0].body, twice[1].body);
  for (const rule of (await s.call('GET', faults, { key })).body.data) await s.call('DELETE', `${faults}/${rule.id}`, { key });

  assert.equal((await s.call('POST', faults, { key, body: { action: 'bad_signature', first: 1 } })).status, 201);
  const made = await customer(sb, 'Forged');
  const [forged] = await collected(sb.group_id, 3); // newest first: the badly signed one is kept
  assert.throws(() => verified(forged, String(sb.webhook_secret)));
  const attempts = await s.call('GET', `${hooks(sb.group_id)}/${sb.webhook_endpoint_id}/deliveries?limit=1`, { key });
  assert.equal(attempts.body.data.items[0].status, 'failed');
  assert.match(attempts.body.data.items[0].fault, /^bad_signature/);
  assert.notEqual(attempts.body.data.items[0].next_attempt_at, null, 'retried, as after a receiver refused it');
  assert.equal(JSON.parse(forged.body).data.object.id, made.body.id);
});

describe('forks and imports keep collecting', () => {
  test("a fork gets a collector of its own: a new secret, the fork's webhooks in the fork's inbox", async () => {
    const sb = await newSandbox(s, { webhooks: 'collect', clock: noonToday() });
    await customer(sb, 'Source');
    await collected(sb.group_id, 1);
    const fork = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/fork`, { key: ADMIN, body: {} });
    assert.equal(fork.status, 201, fork.text);
    assert.match(fork.body.webhook_secret, /^whsec_/);
    assert.notEqual(fork.body.webhook_secret, sb.webhook_secret);
    await customer(fork.body, 'Forked');
    const [m] = await collected(fork.body.group_id, 1);
    assert.equal(verified(m, fork.body.webhook_secret).data.object.first_name, 'Forked');
    // The source's inbox holds only its own.
    const source = await s.call('GET', inbox(sb.group_id, '?types=customer.*'), { key: ADMIN });
    assert.equal(source.body.data.items.length, 1);
  });

  test("an imported sandbox's collector collects, signed with the secret the import answered", async () => {
    const sb = await newSandbox(s, { webhooks: 'collect', clock: noonToday() });
    const file = await fetch(`${s.url}/api/v1/sandboxes/${sb.group_id}/export`, { headers: { authorization: ADMIN } });
    assert.equal(file.status, 200);
    const imported = await s.call('POST', '/api/v1/sandboxes/import', { key: ADMIN, raw: await file.text(), headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(imported.status, 201, imported.text);
    const collector = imported.body.id_map[String(sb.webhook_endpoint_id)];
    const secret = imported.body.webhook_secrets[collector];
    assert.match(secret, /^whsec_/);
    await customer(imported.body, 'Imported');
    const [m] = await collected(imported.body.group_id, 1);
    assert.equal(m.endpoint_id, collector);
    assert.equal(verified(m, secret).data.object.first_name, 'Imported');
  });
});
