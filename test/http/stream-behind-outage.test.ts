// A stream behind its feed across failed reads of the log (docs/decisions.md#store-outage:
// back by itself): a connection that starts behind the feed (a resume from an older
// position) reads the log itself, and those reads fail while the store is away. The
// stream stays open (an EventSource gives up on a stream that ends in an error and then
// meets a 503 on its reconnect), tries the read again after a poll's wait as the feed
// does, and once it succeeds sends every event once, in order. The failures are the
// store's own outage error on the behind read only (the feed's reads go on), so the test
// is the same on both stores (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventSource } from 'eventsource';
import { startServer, type RunningServer } from '../../src/http/app.js';
import type { Platform } from '../../src/services/platform.js';
import type { DemoOutput } from '../../src/dev/demo.js';
import { StoreUnavailable } from '../../src/store/errors.js';
import { storeWatch } from '../../src/services/store-watch.js';
import { saleBody } from '../helpers/bodies.js';
import { demoPlatform, testStore } from '../helpers/platform.js';

let p: Platform;
let demo: DemoOutput;
let server: RunningServer;

before(async () => {
  ({ p, demo } = await demoPlatform());
  server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off', settings: { eventStreamPollMs: 100 } });
});
after(async () => {
  await server.close();
  await p.close();
});

const waitFor = async (done: () => boolean, what: string, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

async function sale(orderId: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/groups/${demo.group_id}/transaction`, {
    method: 'POST',
    headers: { authorization: demo.keys.manage_transactions, 'content-type': 'application/json' },
    body: JSON.stringify(saleBody(demo.processor_id, { orderId })),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { id: string }).id;
}

function follow(query: string) {
  const got = { ids: [] as string[], readies: 0, errors: 0 };
  const es = new EventSource(`${server.url}/api/v1/groups/${demo.group_id}/events/stream?types=transaction.approved${query}`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: demo.keys.manage_webhooks } }),
  });
  es.addEventListener('ready', () => got.readies++);
  es.addEventListener('error', () => got.errors++);
  es.addEventListener('transaction.approved', (m: MessageEvent) => got.ids.push((JSON.parse(m.data as string) as { data: { object: { id: string } } }).data.object.id));
  return { es, got };
}

test(`a stream behind its feed keeps its connection while its reads of the log fail (${testStore})`, async () => {
  const expected: string[] = [];
  for (let i = 0; i < 3; i++) expected.push(await sale(`behind-${i}`));
  // A stream at the log's end: the group's feed, its head past the sales.
  const live = follow('');
  const events = p.db.repos.events;
  const read = events.after;
  let failed = 0;
  // The behind read (from position 0) fails three times as a store outage does; the feed's own reads go on.
  events.after = ((store, group, from, limit) => {
    if (from === 0 && failed < 3) {
      failed++;
      return Promise.reject(new StoreUnavailable('connection_lost', 'read ECONNRESET (test)'));
    }
    return read.call(events, store, group, from, limit);
  }) as typeof read;
  const behind = follow('&last_event_id=0');
  try {
    await waitFor(() => live.got.readies === 1 && behind.got.readies === 1, 'both streams ready');
    await waitFor(() => failed === 3, 'the behind read failing');
    expected.push(await sale('behind-after'));
    // Every approved sale of the group from the start of its log (the demo's too), in log order.
    const all = await p.db.all<{ data: unknown }>("SELECT data FROM events WHERE group_id = ? AND type = 'transaction.approved' ORDER BY seq", [demo.group_id]);
    const ids = all.map((r) => (JSON.parse(typeof r.data === 'string' ? r.data : JSON.stringify(r.data)) as { object: { id: string } }).object.id);
    assert.deepEqual(ids.slice(-expected.length), expected);
    await waitFor(() => behind.got.ids.length >= ids.length && live.got.ids.length === 1, `every event (${behind.got.ids.length} of ${ids.length})`);
    await new Promise((r) => setTimeout(r, 300)); // nothing more (no repeat) comes
    assert.deepEqual(behind.got.ids, ids, 'every event once, in order');
    assert.deepEqual(live.got.ids, expected.slice(-1));
    // One connection all along: no error, no reconnect (a second ready).
    assert.equal(behind.got.readies, 1);
    assert.equal(behind.got.errors, 0);
    assert.notEqual(behind.es.readyState, behind.es.CLOSED);
    assert.ok((storeWatch(p.db).errors.get('connection_lost') ?? 0) >= 3, 'the failed reads are counted as the outage they are');
  } finally {
    events.after = read;
    live.es.close();
    behind.es.close();
  }
});
