// Events of the catalog that come from less obvious places: an immediate proration
// charge (its transaction event, with the request's id), a plan update reaching its
// subscriptions (subscription.updated for each), an invoice going past due on its
// group's clock (once, request null, re-armed by a new due date), and the request id
// shared by the answer's Request-Id header, the access log and the events.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody, US_BILLING } from '../helpers/bodies.js';
import { moveGroupClock } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { eventSchemaOf, type EventType } from '../../src/domain/events.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';
import { forGroup } from '../../src/services/platform.js';
import { followLog } from '../../src/dev/log-tail.js';
import type { AccessEntry } from '../../src/http/access-log.js';
import { execute } from '../../src/services/use-case.js';

let s: TestServer;
const accessLog = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-log-')), 'access.log');
before(async () => {
  s = await startTestServer({ accessLog });
});
after(() => s.close());

const base = () => `/api/v1/groups/${s.demo.group_id}`;
const rec = () => `${base()}/processing/${s.demo.linked_account_id}/recurring`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function events(types: string): Promise<any[]> {
  const r = await s.call('GET', `${base()}/events?types=${types}&limit=1000`, { key: s.demo.keys.manage_webhooks });
  assert.equal(r.status, 200, r.text);
  return r.body.data.items;
}
const advance = (duration: string) => execute(moveGroupClock, s.p, contextFor(s.p, undefined), { group_id: s.demo.group_id, advance: duration });

async function chargedSubscription(planBody: Record<string, unknown>) {
  const key = s.demo.keys.manage_transactions;
  const plan = await s.call('POST', `${rec()}/plans`, { key, body: { name: 'Catalog plan', amount: 3000, billing_cycle: 'monthly', duration: 12, tax: 0, ...planBody } });
  assert.equal(plan.status, 200, plan.text);
  const sub = await s.call('POST', `${rec()}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: s.demo.customer_id, card_id: s.demo.card_id } });
  assert.equal(sub.status, 200, sub.text);
  assert.equal(sub.body.status, 'active');
  return { plan: plan.body, sub: sub.body };
}

test('an immediate proration charge emits its transaction event with the request that made it, then subscription.updated', async () => {
  const { sub } = await chargedSubscription({ proration_behavior: 'immediate_action' });
  const r = await s.call('PUT', `${rec()}/subscription/${sub.id}`, {
    key: s.demo.keys.manage_transactions,
    body: {
      plan_id: sub.plan_id,
      processor_id: sub.processor_id,
      currency: 'USD',
      amounts: { requested_amount: 9000, included_tax_amount: 0 },
      billing_address: US_BILLING,
      billing_cycle: 'monthly',
      duration: 12,
      max_retry_count: 3,
      proration_behavior: 'immediate_action',
    },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.proration_result, 'applied');
  const requestId = r.headers.get('request-id');
  const proration = (await events('transaction.approved')).find((e) => e.request?.id === requestId);
  assert.ok(proration, 'the proration charge has its transaction.approved event');
  assert.equal(proration.data.object.subscription_id, sub.id);
  assert.ok(eventSchemaOf('transaction.approved').safeParse(proration).success);
  const updated = (await events('subscription.updated')).find((e) => e.request?.id === requestId);
  assert.equal(updated.data.object.id, sub.id);
  assert.equal(updated.data.previous_attributes.proration_result, sub.proration_result);
});

test('a plan update that reaches its subscriptions emits subscription.updated for each', async () => {
  const { plan, sub } = await chargedSubscription({ proration_behavior: 'none' });
  const r = await s.call('PUT', `${rec()}/plans/${plan.id}`, {
    key: s.demo.keys.manage_transactions,
    body: { name: plan.name, description: 'more', amount: 3500, billing_cycle: 'monthly', duration: 12, update_subscriptions: true, prorate: false },
  });
  assert.equal(r.status, 200, r.text);
  const requestId = r.headers.get('request-id');
  const mine = (await events('subscription.updated,plan.updated')).filter((e) => e.request?.id === requestId);
  assert.deepEqual(mine.map((e) => e.type).sort(), ['plan.updated', 'subscription.updated']);
  const updated = mine.find((e) => e.type === 'subscription.updated');
  assert.equal(updated.data.object.id, sub.id);
  assert.equal(updated.data.object.amounts.amount, 3500);
  assert.equal(updated.data.previous_attributes.amounts.amount, 3000);
});

test("invoice.past_due: once when the due day passes on the group's clock (request null), again after a new due date passes", async () => {
  const partner = await s.call('POST', `${base()}/partners`, {
    key: s.demo.keys.manage_partners,
    body: { company: 'Late Payers', first_name: 'L', last_name: 'P', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'late@example.com' },
  });
  assert.equal(partner.status, 200, partner.text);
  const groupToday = (await forGroup(s.p, s.demo.group_id)).clock.nowIso().slice(0, 10);
  const inv = await s.call('POST', `${base()}/invoices`, {
    key: s.demo.keys.manage_invoices,
    body: { partner_id: partner.body.id, due_date: groupToday, processor_id: s.demo.processor_id, card_enabled: true, ach_enabled: false, products: [{ product_id: (s.demo.product_ids as string[])[0], quantity: 1 }] },
  });
  assert.equal(inv.status, 200, inv.text);
  assert.equal(inv.body.status, 'pending');
  const pastDue = async () => (await events('invoice.past_due')).filter((e) => e.data.object.id === inv.body.id);
  assert.equal((await pastDue()).length, 0);
  const moved = await advance('1d');
  assert.equal(moved.work['invoice-past-due'], 1);
  const [e] = await pastDue();
  assert.ok(e, 'emitted when the due day ended');
  assert.equal(e.request, null);
  // Stamped with the group's time when the clock saw it: the day after the due day.
  assert.ok(e.created_at.slice(0, 10) > groupToday && e.created_at <= moved.now, `${e.created_at} vs ${moved.now}`);
  assert.equal(e.data.object.status, 'past_due');
  assert.ok(eventSchemaOf('invoice.past_due' as EventType).safeParse(e).success);
  // The clock passing again, from any process, tells nothing new.
  await advance('1d');
  await runDueWork(s.p);
  assert.equal((await pastDue()).length, 1);
  // A new due date re-arms it: past due again once that day ends.
  const later = new Date(Date.parse(`${groupToday}T00:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
  const u = await s.call('PUT', `${base()}/invoices/${inv.body.id}`, {
    key: s.demo.keys.manage_invoices,
    body: { due_date: later, processor_id: s.demo.processor_id, card_enabled: true, ach_enabled: false, products: inv.body.products },
  });
  assert.equal(u.status, 200, u.text);
  assert.equal(u.body.status, 'pending');
  await advance('2d');
  assert.equal((await pastDue()).length, 1, 'not before the new due day ends');
  await advance('2d');
  assert.equal((await pastDue()).length, 2);
});

test('the answer\'s Request-Id, the access log\'s request_id and the events\' request.id are one value', async () => {
  const r = await s.call('POST', `${base()}/transaction`, {
    key: s.demo.keys.manage_transactions,
    body: saleBody(s.demo.processor_id, { orderId: 'request-id-shared' }),
    headers: { 'idempotency-key': 'shared-id-1' },
  });
  assert.equal(r.status, 200, r.text);
  const requestId = r.headers.get('request-id');
  assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
  const e = (await events('transaction.approved')).find((x) => x.data.object.id === r.body.id);
  assert.equal(e.request.id, requestId);
  assert.equal(e.request.idempotency_key, 'shared-id-1');
  // The log line is appended as the answer ends: follow the file until it is there.
  const ac = new AbortController();
  let logged: AccessEntry | undefined;
  await followLog(accessLog, (entry) => {
    if (entry.request_id === requestId) (logged = entry), ac.abort();
  }, { signal: ac.signal, readExisting: true, pollMs: 20 });
  assert.ok(logged, 'the access log has the request');
  assert.equal(logged.path, `${base()}/transaction`);
  assert.equal(logged.status, 200);
  assert.equal(logged.idempotency_key, 'shared-id-1');
  // Pages may read it (CORS exposes it on public answers).
  const pub = await fetch(`${s.url}/api/v1/payment-links/${(s.demo.payment_link_ids as string[])[0]}`);
  assert.match(pub.headers.get('access-control-expose-headers') ?? '', /\bRequest-Id\b/);
  assert.ok(pub.headers.get('request-id'));
});
