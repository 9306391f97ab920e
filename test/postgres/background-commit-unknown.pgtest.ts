// Background work whose COMMIT's answer was lost (docs/decisions.md#store-outage): the
// TCP proxy in front of the cluster (helpers/tcp-proxy.ts) sends a COMMIT on and cuts the
// connection before its answer, so the write was saved and the writer is told
// commit_unknown. The webhook sender's record of an attempt is the background write that
// a lost answer could make twice: it is tried again (sender.ts), and the try again must
// find the attempt already recorded, not record it a second time. Within a bounded time
// the delivery is settled once, its attempt recorded once, and the event sent once.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { tempDbPath } from '../helpers/platform.js';
import { saleBody } from '../helpers/bodies.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { storeWatch } from '../../src/services/store-watch.js';

const cluster = new URL(process.env.PAYCTL_TEST_PG_URL!);
let proxy: TcpProxy;
let p: Platform;
let demo: DemoOutput;
let server: RunningServer;
let receiver: Receiver;

before(async () => {
  proxy = new TcpProxy({ host: cluster.hostname, port: Number(cluster.port) });
  await proxy.start();
  // The journal off: its batched writes commit in the background too, and the COMMIT cut must be the attempt's record.
  p = await openPlatform({ db: proxy.url(tempDbPath()), env: { ...process.env, PAYCTL_JOURNAL: 'off' } });
  demo = await seedDemo(p);
  // The COMMIT after the receiver's answer is the record's: cut it after it was sent on.
  receiver = await startReceiver(() => {
    proxy.onCommit = 'after';
    return { status: 200, body: 'ok' };
  });
  server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
});
after(async () => {
  await server.close();
  await p.close();
  await proxy.stop();
  await receiver.close();
});

async function call(path: string, key: string, body: unknown) {
  const res = await fetch(server.url + path, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as { id: string };
}

test("a webhook attempt whose record's COMMIT answer was lost is recorded once, and the delivery settled once", async () => {
  const g = demo.group_id;
  const endpoint = await call(`/api/v1/groups/${g}/webhook_endpoints`, demo.keys.manage_webhooks, { url: receiver.url, enabled_events: ['transaction.approved'] });
  const errorsBefore = storeWatch(p.db).errors.get('commit_unknown') ?? 0;
  const sale = await call(`/api/v1/groups/${g}/transaction`, demo.keys.manage_transactions, saleBody(demo.processor_id, { orderId: 'record-unknown' }));
  const event = (await p.db.get<{ id: string }>("SELECT id FROM events WHERE group_id = ? AND type = 'transaction.approved' AND data LIKE ?", [g, `%${sale.id}%`]))!.id;
  const delivery = () => p.db.get<{ status: string; attempts: number; lease_owner: string | null }>('SELECT status, attempts, lease_owner FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?', [endpoint.id, event]);
  // Bounded: the record is tried again after RECORD_RETRY_MS (1 s); well inside the 15 s lease.
  const until = Date.now() + 10_000;
  while ((await delivery())?.status !== 'succeeded') {
    assert.ok(Date.now() < until, `the delivery settled: ${JSON.stringify(await delivery())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(proxy.onCommit, undefined, 'the COMMIT was cut');
  assert.ok((storeWatch(p.db).errors.get('commit_unknown') ?? 0) > errorsBefore, 'the record met commit_unknown');
  await new Promise((r) => setTimeout(r, 1_500)); // any second record or send would come by now
  const attempts = await p.db.all<{ attempt: number; status: string }>('SELECT attempt, status FROM webhook_attempts WHERE endpoint_id = ? AND event_id = ?', [endpoint.id, event]);
  assert.deepEqual(attempts, [{ attempt: 1, status: 'succeeded' }], 'the attempt recorded once');
  assert.deepEqual(await delivery(), { status: 'succeeded', attempts: 1, lease_owner: null });
  assert.equal(receiver.received.filter((r) => r.headers['webhook-id'] === event).length, 1, 'sent once');
});
