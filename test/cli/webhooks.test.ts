// payctl webhook … and payctl events resend, spawned as the real binary: --json prints
// the API objects, refusals are one line naming the field; and a running `payctl serve`
// and a CLI `clock advance` delivering the same retries at once send each one once.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { runCli, runCliJson, assertUserError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { httpJson, spawnServe } from '../helpers/serve-process.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { webhookAttemptListSchema, webhookEndpointListSchema, webhookEndpointSchema } from '../../src/domain/webhooks.js';

let db: string;
let demo: { group_id: string; keys: Record<string, string> };
let g: string;
let rx: Receiver;

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  g = demo.group_id;
  rx = await startReceiver();
});
after(() => rx.close());

const cli = (args: string[]) => runCli(args, { db });
const json = <T = any>(args: string[]) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any

test('webhook create / list / rotate-secret / delete; refusals name the field', async () => {
  const created = await json(['webhook', 'create', '--group', g, '--url', rx.url, '--events', 'transaction.*, invoice.paid', '--description', 'cli']);
  assert.ok(webhookEndpointSchema.safeParse(created).success);
  assert.deepEqual(created.enabled_events, ['transaction.*', 'invoice.paid']);
  assert.match(created.secret, /^whsec_/);
  const human = await cli(['webhook', 'list', '--group', g, '--wide']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(created.id));
  assert.match(human.stdout, /transaction\.\*,invoice\.paid/);
  assert.doesNotMatch(human.stdout, /whsec_/, 'the list never shows a secret');
  const list = await json(['webhook', 'list', '--group', g]);
  assert.ok(webhookEndpointListSchema.safeParse(list).success);
  const rotated = await json(['webhook', 'rotate-secret', created.id, '--group', g]);
  assert.notEqual(rotated.secret, created.secret);
  const shown = await cli(['webhook', 'create', '--group', g, '--url', rx.url, '--events', '*']);
  assert.match(shown.stdout, /Signing secret \(shown once[^)]*\): whsec_/);
  assertUserError(await cli(['webhook', 'create', '--group', g, '--url', 'ftp://example.com/x', '--events', '*']), /url: must be an http:\/\/ or https:\/\/ URL/);
  assertUserError(await cli(['webhook', 'create', '--group', g, '--url', rx.url, '--events', 'transaction.*,nothing.*']), /--events: "nothing\.\*" is not an event type/);
  assert.deepEqual(await json(['webhook', 'delete', created.id, '--group', g]), { id: created.id, deleted: true });
  assertUserError(await cli(['webhook', 'delete', created.id, '--group', g]), /webhook endpoint not found/);
  for (const e of (await json(['webhook', 'list', '--group', g])).data.items) await json(['webhook', 'delete', e.id, '--group', g]);
});

test('a serve and a CLI clock advance delivering the same retries: each attempt is sent once; deliveries and events resend', async () => {
  // Everything fails until the retries: each event's first attempt gets a 500.
  const firstSeen = new Set<string>();
  const flaky = await startReceiver((m) => {
    const id = m.headers['webhook-id']!;
    if (firstSeen.has(id)) return { status: 200, body: 'ok' };
    firstSeen.add(id);
    return { status: 500, body: 'not yet' };
  });
  const endpoint = await json(['webhook', 'create', '--group', g, '--url', flaky.url, '--events', 'customer.created']);
  const srv = await spawnServe({ db, args: ['--tick', '20', '--access-log', 'off'] });
  try {
    const n = 30;
    for (let i = 0; i < n; i++) {
      const r = await httpJson(`${srv.url}/api/v1/groups/${g}/customers`, 'POST', { key: demo.keys.manage_customers, body: { first_name: `C${i}`, last_name: 'Race' } });
      assert.equal(r.status, 200, r.text);
    }
    await flaky.waitFor(n); // every first attempt, failed
    // The retries fall due at once for the CLI and for the server's tick: both deliver.
    const advanced = await json(['clock', 'advance', '10s', '--group', g]);
    await flaky.waitFor(2 * n);
    const attempts = await json(['webhook', 'deliveries', endpoint.id, '--group', g, '--limit', '1000']);
    assert.ok(webhookAttemptListSchema.safeParse(attempts).success);
    const wh = new Webhook(endpoint.secret);
    for (const m of flaky.received) wh.verify(m.body, m.headers);
    const perEvent = new Map<string, number>();
    for (const m of flaky.received) perEvent.set(m.headers['webhook-id']!, (perEvent.get(m.headers['webhook-id']!) ?? 0) + 1);
    assert.equal(perEvent.size, n);
    assert.ok([...perEvent.values()].every((c) => c === 2), 'each event: one failed attempt, one retry, never a retry twice');
    assert.equal(typeof advanced.work['webhook-deliveries'], 'number');

    const human = await cli(['webhook', 'deliveries', endpoint.id, '--group', g, '--limit', '3']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /customer\.created/);
    assert.match(human.stdout, /succeeded/);

    const eventId = flaky.received[0]!.headers['webhook-id']!;
    const before = flaky.received.length;
    const resent = await json(['events', 'resend', eventId, '--group', g, '--endpoint', endpoint.id]);
    assert.deepEqual(resent, { event_id: eventId, endpoint_ids: [endpoint.id] });
    await flaky.waitFor(before + 1);
    assert.equal(flaky.received[before]!.headers['webhook-id'], eventId);
    assertUserError(await cli(['events', 'resend', '00000000-0000-7000-8000-000000000000', '--group', g]), /event not found/);
  } finally {
    srv.child.kill('SIGTERM');
    await srv.exited;
    await flaky.close();
  }
});
