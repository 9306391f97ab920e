// Fault injection on webhook deliveries over the real server and a real receiver (which
// verifies every message with the standardwebhooks library): duplicate (the same
// webhook-id twice), drop (a failed attempt, retried on the group clock), bad_signature
// (refused by the verifier, then retried), delay and reorder (held on the group clock;
// later events overtake a reordered one), each recorded on the attempt and shown by the
// deliveries list; who may set the rules; a seed reproduces the sequence.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, noonToday, type SandboxReply } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { deliveriesSettled } from '../../src/services/webhooks/delivery-loop.js';
import { fires } from '../../src/domain/faults.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

interface Setup {
  sb: SandboxReply;
  rx: Receiver;
  endpoint: { id: string; secret: string };
  /** Messages that verified, by webhook-id, in arrival order. */
  verified: () => string[];
}

/** A sandbox with an endpoint to a receiver that verifies each message (400 when it does not). */
async function setup(): Promise<Setup> {
  // (Its clock moves by seconds to an hour: started at noon, it crosses no settlement cutoff.)
  const sb = await newSandbox(s, { clock: noonToday() });
  let wh: Webhook | undefined;
  const verified: string[] = [];
  const rx = await startReceiver((r) => {
    try {
      wh!.verify(r.body, r.headers);
      verified.push(r.headers['webhook-id']!);
      return { status: 200, body: 'ok' };
    } catch {
      return { status: 400, body: 'bad signature' };
    }
  });
  const created = await s.call('POST', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, {
    key: sb.keys.manage_webhooks,
    body: { url: rx.url, enabled_events: ['transaction.*'] },
  });
  assert.equal(created.status, 200, created.text);
  wh = new Webhook(created.body.secret);
  return { sb, rx, endpoint: created.body, verified: () => [...verified] };
}

const faults = (x: Setup) => `/api/v1/groups/${x.sb.group_id}/webhook_endpoints/${x.endpoint.id}/faults`;
async function addRule(x: Setup, rule: Record<string, unknown>) {
  const r = await s.call('POST', faults(x), { key: x.sb.keys.manage_webhooks, body: rule });
  assert.equal(r.status, 201, r.text);
  return r.body;
}
async function sale(x: Setup): Promise<string> {
  const r = await s.call('POST', `/api/v1/groups/${x.sb.group_id}/transaction`, { key: x.sb.keys.manage_transactions, body: saleBody(x.sb.processor_id) });
  assert.equal(r.status, 200, r.text);
  const events = await s.call('GET', `/api/v1/groups/${x.sb.group_id}/events?limit=1`, { key: x.sb.keys.manage_webhooks });
  return events.body.data.items[0].id as string;
}
const attempts = async (x: Setup) =>
  (await s.call('GET', `/api/v1/groups/${x.sb.group_id}/webhook_endpoints/${x.endpoint.id}/deliveries`, { key: x.sb.keys.manage_webhooks })).body.data.items.reverse();
const advance = async (x: Setup, by: string) => {
  const r = await s.call('POST', `/api/v1/sandboxes/${x.sb.group_id}/clock`, { key: ADMIN, body: { advance: by } });
  assert.equal(r.status, 200, r.text);
  await deliveriesSettled(s.p);
};

describe('webhook fault rules', () => {
  test('a manage_webhooks key of the group adds, lists and removes; other keys and bad rules are refused', async () => {
    const x = await setup();
    const other = await setup();
    try {
      const rule = await addRule(x, { action: 'drop', first: 1, seed: 3 });
      assert.equal(rule.endpoint_id, x.endpoint.id);
      assert.equal(rule.seed, 3);
      assert.equal((await s.call('POST', faults(x), { key: other.sb.keys.manage_webhooks, body: { action: 'drop' } })).status, 403);
      assert.equal((await s.call('POST', faults(x), { key: x.sb.keys.manage_transactions, body: { action: 'drop' } })).status, 403);
      const elsewhere = `/api/v1/groups/${other.sb.group_id}/webhook_endpoints/${x.endpoint.id}/faults`;
      assert.equal((await s.call('GET', elsewhere, { key: other.sb.keys.manage_webhooks })).status, 404, "another group's endpoint is not found");
      for (const [body, field] of [
        [{ action: 'delay' }, 'delay'],
        [{ action: 'delay', delay: 'soon' }, 'delay'],
        [{ action: 'reorder' }, 'window'],
        [{ action: 'drop', delay: '1h' }, 'delay'],
        [{ action: 'explode' }, 'action'],
        [{ action: 'drop', every: 0 }, 'every'],
      ] as const) {
        const r = await s.call('POST', faults(x), { key: x.sb.keys.manage_webhooks, body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.ok(r.body.error.fields.some((f: { path: string }) => f.path === field), `${JSON.stringify(body)}: ${r.text}`);
      }
      const list = await s.call('GET', faults(x), { key: x.sb.keys.manage_webhooks });
      assert.deepEqual(list.body.data.map((r: { id: string }) => r.id), [rule.id]);
      const removed = await s.call('DELETE', `${faults(x)}/${rule.id}`, { key: x.sb.keys.manage_webhooks });
      assert.deepEqual(removed.body, { id: rule.id, deleted: true });
      assert.equal((await s.call('GET', faults(x), { key: x.sb.keys.manage_webhooks })).body.data.length, 0);
    } finally {
      await x.rx.close();
      await other.rx.close();
    }
  });
});

describe('each webhook fault against a real receiver', () => {
  test('duplicate: the same message, same webhook-id, arrives twice; one attempt records it', async () => {
    const x = await setup();
    try {
      const rule = await addRule(x, { action: 'duplicate', first: 1 });
      const id = await sale(x);
      await x.rx.waitFor(2);
      await deliveriesSettled(s.p);
      assert.deepEqual(x.verified(), [id, id]);
      assert.equal(x.rx.received[0]!.body, x.rx.received[1]!.body);
      const [a] = await attempts(x);
      assert.equal(a.status, 'succeeded');
      assert.equal(a.fault, `duplicate; rule=${rule.id}; call=1`);
    } finally {
      await x.rx.close();
    }
  });

  test('drop: nothing is sent, the attempt fails and is retried on the group clock', async () => {
    const x = await setup();
    try {
      const rule = await addRule(x, { action: 'drop', first: 1 });
      const id = await sale(x);
      await deliveriesSettled(s.p);
      let list = await attempts(x);
      assert.equal(list.length, 1);
      assert.equal(list[0].status, 'failed');
      assert.equal(list[0].fault, `drop; rule=${rule.id}; call=1`);
      assert.match(list[0].error, /drop \(nothing was sent\)/);
      assert.ok(list[0].next_attempt_at, 'retried');
      assert.equal(x.rx.received.length, 0);
      await advance(x, '10s');
      await x.rx.waitFor(1);
      assert.deepEqual(x.verified(), [id]);
      list = await attempts(x);
      assert.deepEqual(list.map((a: { attempt: number; status: string; fault: string | null }) => [a.attempt, a.status, a.fault === null]), [[1, 'failed', false], [2, 'succeeded', true]]);
    } finally {
      await x.rx.close();
    }
  });

  test('bad_signature: the receiver cannot verify it and refuses; the retry verifies', async () => {
    const x = await setup();
    try {
      await addRule(x, { action: 'bad_signature', count: 1 });
      const id = await sale(x);
      await x.rx.waitFor(1);
      await deliveriesSettled(s.p);
      assert.equal(x.verified().length, 0, 'the first message does not verify');
      const [first] = await attempts(x);
      assert.equal(first.status, 'failed');
      assert.equal(first.response_status, 400);
      assert.match(first.fault, /^bad_signature; rule=/);
      await advance(x, '10s');
      await x.rx.waitFor(2);
      assert.deepEqual(x.verified(), [id]);
    } finally {
      await x.rx.close();
    }
  });

  test('delay: held for that long of the group clock, then delivered; no attempt of the schedule is used', async () => {
    const x = await setup();
    try {
      const rule = await addRule(x, { action: 'delay', delay: '1h' });
      const id = await sale(x);
      await deliveriesSettled(s.p);
      const [held] = await attempts(x);
      assert.equal(held.status, 'held');
      assert.equal(held.fault, `delay; held=3600s; rule=${rule.id}; call=1`);
      assert.equal(Date.parse(held.next_attempt_at) - Date.parse(held.created_at), 3_600_000);
      await advance(x, '30m');
      assert.equal(x.rx.received.length, 0, 'still held');
      await advance(x, '31m');
      await x.rx.waitFor(1);
      assert.deepEqual(x.verified(), [id]);
      const list = await attempts(x);
      assert.deepEqual(list.map((a: { attempt: number; status: string }) => [a.attempt, a.status]), [[1, 'held'], [1, 'succeeded']], 'held once, then sent as the first attempt');
    } finally {
      await x.rx.close();
    }
  });

  test('reorder: a held event is overtaken by a later one, and arrives within the window', async () => {
    const x = await setup();
    try {
      await addRule(x, { action: 'reorder', window: '10m', first: 1, seed: 11 });
      const first = await sale(x);
      await deliveriesSettled(s.p);
      const second = await sale(x);
      await x.rx.waitFor(1);
      await advance(x, '10m');
      await x.rx.waitFor(2);
      assert.deepEqual(x.verified(), [second, first], 'out of order');
      const [held] = await attempts(x);
      assert.equal(held.status, 'held');
      const holdMs = Date.parse(held.next_attempt_at) - Date.parse(held.created_at);
      assert.ok(holdMs >= 1000 && holdMs <= 600_000, String(holdMs));
    } finally {
      await x.rx.close();
    }
  });

  test('the same seed gives the same drops: the sequence is the domain rule\'s', async () => {
    const run = async (seed: number) => {
      const x = await setup();
      try {
        await addRule(x, { action: 'drop', rate: '0.5', seed, count: 100 });
        for (let i = 0; i < 8; i++) {
          await sale(x);
          await deliveriesSettled(s.p);
        }
        return (await attempts(x)).map((a: { fault: string | null }) => a.fault !== null);
      } finally {
        await x.rx.close();
      }
    };
    const one = await run(77);
    assert.deepEqual(await run(77), one);
    assert.deepEqual(one, Array.from({ length: 8 }, (_, i) => fires({ rate: 0.5, seed: 77 }, i + 1)));
  });
});
