// Webhook deliveries survive a kill -9: sales committed by a real `payctl serve` whose
// deliveries were in flight (the receiver held every request unanswered) or not yet
// claimed when the server was killed are delivered by the next server, each verified
// with the standardwebhooks library; and every delivery ends succeeded in the database.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { demoPlatform } from '../helpers/platform.js';
import { httpJson, killHard, spawnServe } from '../helpers/serve-process.js';
import { saleBody } from '../helpers/bodies.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { createWebhookEndpoint } from '../../src/services/webhooks/endpoints.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { forGroup } from '../../src/services/platform.js';
import { assertIntact, openStore } from '../helpers/store.js';

test('kill -9 right after sales committed: every sale is delivered by the restarted server', async () => {
  const rx = await startReceiver(() => new Promise(() => undefined)); // holds every request
  const { p, demo } = await demoPlatform();
  const dbPath = p.db.location;
  const gp = await forGroup(p, demo.group_id);
  const endpoint = await execute(createWebhookEndpoint, gp, contextFor(gp, demo.group_id), { url: rx.url, enabled_events: ['transaction.*'] });
  await p.close();
  // A short lease: the deliveries the killed server held are free again soon after.
  const env = { PAYCTL_WEBHOOK_LEASE_MS: '3000' };
  const args = ['--tick', '100', '--access-log', 'off'];
  try {
    const first = await spawnServe({ db: dbPath, env, args });
    const sales = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const r = await httpJson(`${first.url}/api/v1/groups/${demo.group_id}/transaction`, 'POST', {
          key: demo.keys.manage_transactions,
          body: saleBody(demo.processor_id, { amount: 1000 + i }),
        });
        assert.equal(r.status, 200, r.text);
        return r.body.id as string;
      }),
    );
    await rx.waitFor(1); // deliveries are in flight, held by the receiver
    await killHard(first);

    const wh = new Webhook(endpoint.secret!);
    const fromSecond = rx.received.length;
    rx.answer(() => ({ status: 200, body: 'ok' }));
    // The sales delivered (and verified) by the restarted server.
    const deliveredSales = () => {
      const ids = new Set<string>();
      for (const m of rx.received.slice(fromSecond)) {
        const e = wh.verify(m.body, m.headers) as { type: string; data: { object: { id: string } } };
        if (e.type === 'transaction.approved') ids.add(e.data.object.id);
      }
      return ids;
    };
    const second = await spawnServe({ db: dbPath, env, args });
    try {
      await rx.waitUntil(() => {
        const ids = deliveredSales();
        return sales.every((id) => ids.has(id));
      });
      assert.equal(deliveredSales().size, sales.length);
    } finally {
      // A clean stop: the pass that sent the last ones records them before the exit.
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const db = await openStore(dbPath);
    try {
      const rows = await db.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status');
      assert.deepEqual(rows, [{ status: 'succeeded', n: sales.length }], 'every delivery ended succeeded (recorded after the answer)');
    } finally {
      await db.close();
    }
  } finally {
    await rx.close();
  }
});
