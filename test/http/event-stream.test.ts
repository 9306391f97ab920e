// The live event stream over a real server and a real SSE client (the eventsource
// package): the ready message, events in log order with their type and position,
// the type filter, resuming with Last-Event-ID after a disconnect (nothing lost,
// nothing twice), heartbeats, events written by another process on the same database,
// who may open it, bad requests, and positions never reused when a sandbox holding the
// log's newest events is dropped.
import '../helpers/env.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { EventSource } from 'eventsource';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { runCli } from '../helpers/cli.js';
import { eventSchema } from '../../src/domain/events.js';
import { streamFeeds } from '../../src/services/events/stream.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, settings: { eventStreamHeartbeatMs: 200, eventStreamPollMs: 50 } });
});
after(() => s.close());

const streamUrl = (query = '') => `${s.url}/api/v1/groups/${s.demo.group_id}/events/stream${query}`;
const hooks = () => s.demo.keys.manage_webhooks;

interface Msg {
  type: string;
  id: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** An EventSource with the API key, collecting every message; `next(n)` awaits the first n of a type. */
function connect(url: string, opts: { key?: string; lastEventId?: string } = {}) {
  const messages: Msg[] = [];
  const waiters: Array<() => void> = [];
  const errors: Array<{ code?: number; message?: string }> = [];
  const es = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          authorization: opts.key ?? hooks(),
          ...(opts.lastEventId && !(init?.headers as Record<string, string>)['Last-Event-ID'] ? { 'Last-Event-ID': opts.lastEventId } : {}),
        },
      }),
  });
  const push = (type: string) => (ev: MessageEvent) => {
    messages.push({ type, id: ev.lastEventId, data: JSON.parse(ev.data as string) });
    for (const w of waiters.splice(0)) w();
  };
  es.addEventListener('ready', push('ready'));
  for (const t of ['transaction.approved', 'transaction.declined', 'customer.created', 'card.added', 'product.created']) es.addEventListener(t, push(t));
  es.onerror = (e) => {
    errors.push({ code: (e as unknown as { code?: number }).code, message: (e as unknown as { message?: string }).message });
    for (const w of waiters.splice(0)) w();
  };
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((r) => waiters.push(r));
  };
  return {
    es,
    messages,
    errors,
    events: () => messages.filter((m) => m.type !== 'ready'),
    until,
    /** Resolves when `n` events (not counting ready) arrived. */
    next: (n: number) => until(() => messages.filter((m) => m.type !== 'ready').length >= n),
    ready: () => until(() => messages.some((m) => m.type === 'ready')),
  };
}

const sale = (orderId: string, token = 'tok_visa') =>
  s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id, { orderId, token }) });

describe('events stream', () => {
  test('ready first, then each new event with id: its position, event: its type, data: the event object', async () => {
    const c = connect(streamUrl());
    try {
      await c.ready();
      const ready = c.messages[0]!;
      assert.equal(ready.type, 'ready');
      assert.equal(ready.data.last_event_id, ready.id);
      assert.deepEqual(ready.data.types, ['*']);
      const r = await sale('stream-1');
      assert.equal(r.status, 200, r.text);
      await c.next(1);
      const [e] = c.events();
      assert.equal(e!.type, 'transaction.approved');
      assert.ok(Number(e!.id) > Number(ready.id), 'positions grow');
      assert.ok(eventSchema.safeParse(e!.data).success);
      assert.deepEqual(e!.data.data.object, r.body);
      // The same object the get operation answers, and the request's id as the answer named it.
      const got = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/events/${e!.data.id}`, { key: hooks() });
      assert.deepEqual(got.body, e!.data);
      assert.equal(e!.data.request.id, r.headers.get('request-id'));
    } finally {
      c.es.close();
    }
  });

  test('types filters with wildcards; other types are skipped', async () => {
    const c = connect(streamUrl('?types=customer.*,transaction.declined'));
    try {
      await c.ready();
      assert.deepEqual(c.messages[0]!.data.types, ['customer.*', 'transaction.declined']);
      await sale('stream-skipped');
      const declined = await sale('stream-declined', 'tok_insufficient_funds');
      assert.equal(declined.body.status, 'declined', declined.text);
      const cust = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/customers`, {
        key: s.demo.keys.manage_customers,
        body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      });
      assert.equal(cust.status, 200, cust.text);
      await c.next(2);
      assert.deepEqual(c.events().map((m) => m.type), ['transaction.declined', 'customer.created']);
    } finally {
      c.es.close();
    }
  });

  test('a reconnect with Last-Event-ID gets every event committed while disconnected, in order, none twice', async () => {
    const first = connect(streamUrl('?types=transaction.*'));
    await first.ready();
    await sale('resume-1');
    await first.next(1);
    const last = first.events()[0]!;
    first.es.close();
    const missed: string[] = [];
    for (let i = 0; i < 5; i++) missed.push((await sale(`resume-missed-${i}`)).body.id);
    const second = connect(streamUrl('?types=transaction.*'), { lastEventId: last.id });
    try {
      await second.ready();
      assert.equal(second.messages[0]!.data.last_event_id, last.id, 'the stream starts after the position given');
      await second.next(5);
      assert.deepEqual(second.events().map((m) => m.data.data.object.id), missed);
      const ids = second.events().map((m) => Number(m.id));
      assert.deepEqual([...ids].sort((a, b) => a - b), ids, 'log order');
      // The event id is accepted as a position too.
      const byId = connect(streamUrl('?types=transaction.*'), { lastEventId: last.data.id });
      try {
        await byId.next(5);
        assert.deepEqual(byId.events().map((m) => m.data.data.object.id), missed);
      } finally {
        byId.es.close();
      }
    } finally {
      second.es.close();
    }
  });

  test('the client reconnects by itself after the server drops it, and resumes where it was', async () => {
    const c = connect(streamUrl('?types=transaction.*'));
    try {
      await c.ready();
      await sale('drop-1');
      await c.next(1);
      // Drop every connection of the server (the client sees the stream end and reconnects).
      const opened = c.messages.filter((m) => m.type === 'ready').length;
      const dropped = new Promise<void>((resolve) => c.es.addEventListener('error', () => resolve(), { once: true }));
      s.server.closeAllConnections();
      await dropped;
      const during = (await sale('drop-2')).body.id;
      await c.until(() => c.messages.filter((m) => m.type === 'ready').length > opened);
      await c.next(2);
      assert.deepEqual(c.events().map((m) => m.data.data.object.id).slice(1), [during]);
    } finally {
      c.es.close();
    }
  });

  test('many connections to one group share one feed: every event to each once; a late joiner catches up from its position', async () => {
    const first = await sale('shared-0');
    assert.equal(first.status, 200);
    const conns = Array.from({ length: 20 }, () => connect(streamUrl()));
    try {
      await Promise.all(conns.map((c) => c.ready()));
      const feeds = streamFeeds(s.p.db).filter((f) => f.group === s.demo.group_id);
      assert.equal(feeds.length, 1);
      assert.equal(feeds[0]!.connections, 20);
      const r1 = await sale('shared-1');
      const r2 = await sale('shared-2');
      await Promise.all(conns.map((c) => c.next(2)));
      for (const c of conns) {
        assert.deepEqual(c.events().map((e) => e.data.data.object.id), [r1.body.id, r2.body.id]);
      }
      // A connection resuming from an older position reads the log itself until it reaches the feed, then follows it.
      const start = conns[0]!.messages[0]!.id; // the ready position, before shared-1
      const late = connect(streamUrl(), { lastEventId: start });
      conns.push(late);
      await late.next(2);
      const r3 = await sale('shared-3');
      await Promise.all(conns.map((c) => c.next(3)));
      assert.deepEqual(late.events().map((e) => e.data.data.object.id), [r1.body.id, r2.body.id, r3.body.id]);
      assert.equal(streamFeeds(s.p.db).filter((f) => f.group === s.demo.group_id).length, 1);
    } finally {
      for (const c of conns) c.es.close();
    }
    // When the last connection has gone, the feed stops (checked for at most 5 s).
    for (let i = 0; i < 250 && streamFeeds(s.p.db).some((f) => f.group === s.demo.group_id); i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(streamFeeds(s.p.db).filter((f) => f.group === s.demo.group_id), []);
  });

  test('a sandbox with the newest events of the log dropped: the next events still come after every position handed out', async () => {
    // The stream opens after the log's end, which is the sandbox's event; dropping the
    // sandbox deletes it, and a reused position would put the next event behind the stream.
    const sb = await newSandbox(s);
    const theirs = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, {}) });
    assert.equal(theirs.status, 200, theirs.text);
    const c = connect(streamUrl('?types=transaction.*'));
    try {
      await c.ready();
      const start = c.messages[0]!.id;
      assert.equal((await s.call('DELETE', `/api/v1/sandboxes/${sb.group_id}`, { key: ADMIN })).status, 200);
      const ours = await sale('after-drop');
      assert.equal(ours.status, 200, ours.text);
      const arrived = await Promise.race([c.next(1).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      assert.ok(arrived, 'the live stream got the event written after the drop');
      const [e] = c.events();
      assert.equal(e!.data.data.object.id, ours.body.id);
      assert.ok(Number(e!.id) > Number(start), `position ${e!.id} comes after the ready position ${start}`);
      // A reconnect from the ready position gets it too.
      const again = connect(streamUrl('?types=transaction.*'), { lastEventId: start });
      try {
        const resumed = await Promise.race([again.next(1).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
        assert.ok(resumed, 'the resumed stream got it');
        assert.deepEqual(again.events().map((m) => m.data.data.object.id), [ours.body.id]);
      } finally {
        again.es.close();
      }
    } finally {
      c.es.close();
    }
  });

  test('heartbeat comments keep an idle stream alive', async () => {
    const res = await fetch(streamUrl(), { headers: { authorization: hooks() } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(res.headers.get('request-id'));
    const reader = res.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while (!/\n:\n/.test(text)) text += decoder.decode((await reader.read()).value);
    assert.match(text, /^retry: ?1000\n/m);
    assert.match(text, /event: ?ready\n/);
    await reader.cancel();
  });

  test('events committed by another process (the CLI on the same database) are streamed', async () => {
    const c = connect(streamUrl('?types=product.*'));
    try {
      await c.ready();
      const r = await runCli(['product', 'create', '--group', s.demo.group_id, '--name', 'Streamed widget', '--description', 'One widget', '--amount', '3.50', '--json'], { db: s.dbPath });
      assert.equal(r.code, 0, r.stderr + r.stdout);
      await c.next(1);
      assert.equal(c.events()[0]!.type, 'product.created');
      assert.equal(c.events()[0]!.data.data.object.name, 'Streamed widget');
    } finally {
      c.es.close();
    }
  });

  test('only a key with manage_webhooks opens it; bad positions and filters are 400s naming the field', async () => {
    const other = await fetch(streamUrl(), { headers: { authorization: s.demo.keys.manage_transactions } });
    assert.equal(other.status, 403);
    assert.match((await other.json()).error.message, /manage_webhooks/);
    const none = await fetch(streamUrl());
    assert.equal(none.status, 401);
    const badType = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/events/stream?types=nope.*`, { key: hooks() });
    assert.equal(badType.status, 400);
    assert.match(badType.body.error.fields[0].path, /^types/);
    const badId = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/events/stream`, { key: hooks(), headers: { 'last-event-id': 'yesterday' } });
    assert.equal(badId.status, 400);
    assert.equal(badId.body.error.fields[0].path, 'Last-Event-ID');
    const unknown = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/events/stream?last_event_id=01a207a6-41ad-721c-b4f0-014a51c53eb3`, { key: hooks() });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.fields[0].path, 'last_event_id');
  });
});
