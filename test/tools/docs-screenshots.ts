// `npm run docs:screenshots`: the dashboard's pictures in docs/dashboard.md, taken by the
// same headless Chromium the browser tests use, from a real server over a temporary
// database (a sandbox with the demo data, a few sales, a day moved on). Run it after a
// change to the dashboard's pages and commit docs/images/.
import '../helpers/env.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { launchBrowser } from '../helpers/browser.js';
import { saleBody } from '../helpers/bodies.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { ADMIN_TOKEN, dashboardServer, makeSandbox, signedIn } from '../helpers/dashboard.js';

const out = path.join(packageRoot, 'docs/images');
mkdirSync(out, { recursive: true });

const s = await dashboardServer();
const browser = await launchBrowser();
const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
try {
  const box = await makeSandbox(s, 'Checkout tests');
  let first = '';
  for (let i = 0; i < 6; i++) {
    const r = await s.call('POST', `/api/v1/groups/${box.group_id}/transaction`, { key: box.keys.manage_transactions, body: saleBody(box.processor_id, { amount: 1250 + i * 730 }) });
    first ||= r.body.id as string;
  }
  // A fault rule of each kind, for the Faults page, on an endpoint that answers 200.
  const admin = { authorization: ADMIN_TOKEN };
  await s.call('POST', `/api/v1/sandboxes/${box.group_id}/faults`, { headers: admin, body: { operation: 'sale', action: 'error', status: 503, rate: 0.1, seed: 7 } });
  const endpoint = await s.call('POST', `/api/v1/groups/${box.group_id}/webhook_endpoints`, { key: box.keys.manage_webhooks, body: { url: receiver.url, enabled_events: ['transaction.*'] } });
  await s.call('POST', `/api/v1/groups/${box.group_id}/webhook_endpoints/${endpoint.body.id}/faults`, { key: box.keys.manage_webhooks, body: { action: 'duplicate', first: 1 } });
  const g = `/dashboard/groups/${box.group_id}`;
  const shots: Array<[string, string, { width: number; height: number }, (page: import('playwright-core').Page) => Promise<void>]> = [
    ['dashboard-groups.png', '/dashboard', { width: 1280, height: 800 }, async () => undefined],
    ['dashboard-transactions.png', `${g}/transactions`, { width: 1280, height: 800 }, async () => undefined],
    ['dashboard-requests.png', `${g}/requests`, { width: 1280, height: 800 }, async () => undefined],
    ['dashboard-faults.png', `${g}/faults`, { width: 1280, height: 800 }, async () => undefined],
    ['dashboard-events.png', `${g}/events`, { width: 1280, height: 800 }, async (page) => {
      await page.getByRole('button', { name: '+1 day' }).click();
      await page.waitForURL(`**${g}/events`);
    }],
    ['dashboard-transaction.png', `${g}/objects/transaction/${first}`, { width: 1280, height: 800 }, async () => undefined],
    ['dashboard-reports.png', `${g}/reports?start=2020-01-01`, { width: 1280, height: 800 }, async () => undefined],
    ['dashboard-phone.png', `${g}/events`, { width: 390, height: 844 }, async () => undefined],
  ];
  for (const [file, url, viewport, act] of shots) {
    const { context, page } = await signedIn(browser, s, viewport);
    await page.goto(s.url + url);
    await act(page);
    await page.screenshot({ path: path.join(out, file) });
    await context.close();
    process.stdout.write(`wrote docs/images/${file}\n`);
  }
} finally {
  await receiver.close();
  await browser.close();
  await s.close();
}
