// Two merchant groups in one database, each with one object of every kind, for the
// isolation matrix and the hostile-input suite. Group A is the demo group of the test
// server; group B is the demo seeded a second time (the demo's steps record what they
// made, so a new capability's demo objects show up here without changes).
//
// `idFor(group, param)` maps a route parameter (transaction_id, plan_id, …) to the id
// of that group's object. A route parameter with no fixture fails the suites loudly:
// add it to PARAM_IDS below (or make the demo create the object).
import assert from 'node:assert/strict';
import { contextFor } from '../../../src/services/context.js';
import { execute } from '../../../src/services/use-case.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { seedDemo, type DemoOutput } from '../../../src/dev/demo.js';
import { createKey, revokeKey } from '../../../src/services/groups/keys.js';
import { PERMISSIONS, type Permission } from '../../../src/domain/permissions.js';
import type { RouteDef } from '../../../src/http/route.js';
import type { ServerOptions } from '../../../src/http/app.js';
import { CARD_ADDRESS, saleBody, US_BILLING } from '../../helpers/bodies.js';

export interface GroupFixture {
  name: 'A' | 'B';
  demo: DemoOutput;
  groupId: string;
  /** One key per permission (demo keys). */
  keys: Record<Permission, string>;
  /** A key with every permission. */
  allKey: string;
  /** Object ids by parameter name (see PARAM_IDS). */
  ids: Record<string, string>;
}

export interface World {
  s: TestServer;
  a: GroupFixture;
  b: GroupFixture;
  /** A revoked key of group A that had every permission. */
  revokedKey: string;
}

export const AUTH_AMOUNT = 5000;

/**
 * Parameter name → how to find a group's object of that kind. Demo fields are either the
 * id (`customer_id`) or a list (`product_ids`); `transaction_id` is a fresh auth so that
 * capture can succeed in the positive control.
 */
const PARAM_IDS: Record<string, (d: DemoOutput, extra: Record<string, string>) => string | undefined> = {
  group_id: (d) => d.group_id,
  processor_id: (d) => d.processor_id,
  linked_account_id: (d) => d.linked_account_id,
  customer_id: (d) => d.customer_id,
  card_id: (d) => d.card_id as string | undefined,
  transaction_id: (_d, x) => x.transaction_id,
  event_id: (_d, x) => x.event_id,
  endpoint_id: (_d, x) => x.endpoint_id,
  fault_id: (_d, x) => x.fault_id,
  webhook_fault_id: (_d, x) => x.webhook_fault_id,
  product_id: (d) => first(d.product_ids),
  invoice_id: (d) => first(d.invoice_ids),
  partner_id: (d) => first(d.partner_ids),
  plan_id: (d) => first(d.plan_ids),
  subscription_id: (d) => first(d.subscription_ids),
  payment_link_id: (d) => first(d.payment_link_ids),
  signup_form_id: (d) => d.signup_form_id as string | undefined,
};

const first = (v: unknown): string | undefined => (Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);

/** The `:name` parameters of a route path, in order. */
export const paramsOf = (path: string): string[] => [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

/** The id of `group`'s object for `param`, or a loud failure naming the route. */
export function idFor(g: GroupFixture, param: string, route?: RouteDef): string {
  const id = g.ids[param];
  assert.ok(
    id,
    `no fixture for :${param}${route ? ` (route ${route.method} ${route.path})` : ''}: add it to PARAM_IDS in test/security/support/fixtures.ts (or a demo step that creates one)`,
  );
  return id;
}

/** The route's path with each parameter filled from `ids` (missing ones fail loudly). */
export function fillPath(route: RouteDef, ids: Record<string, string>): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    assert.ok(ids[name], `no fixture for :${name} (route ${route.method} ${route.path})`);
    return encodeURIComponent(ids[name]!);
  });
}

/** The sandbox admin token of the world's server (the admin routes take it instead of a key). */
export const ADMIN_TOKEN = 'padm_security_world';

/** The Authorization value that gets a request past authentication on `route`. */
export const authFor = (route: RouteDef, w: { a: { allKey: string } }): string | undefined =>
  route.auth.kind === 'key' ? w.a.allKey : route.auth.kind === 'admin' ? ADMIN_TOKEN : undefined;

export async function buildWorld(opts: Partial<ServerOptions> = {}): Promise<World> {
  // Pay is rate limited per address and every request here comes from 127.0.0.1.
  const s = await startTestServer({ settings: { payRateLimit: { points: 1_000_000, durationMs: 60_000 } }, adminToken: ADMIN_TOKEN, ...opts });
  const demoA = s.demo;
  // Seed the demo again as a second, unrelated merchant (the demo records its state and
  // key seed in settings; set them aside, then put A's back).
  const saved = await s.p.db.all<{ name: string; value: string }>("SELECT name, value FROM settings WHERE name IN ('demo.state', 'demo.seed')");
  await s.p.db.write((tx) => tx.run("DELETE FROM settings WHERE name IN ('demo.state', 'demo.seed')"));
  const demoB = await seedDemo(s.p);
  await s.p.db.write(async (tx) => {
    await tx.run("DELETE FROM settings WHERE name IN ('demo.state', 'demo.seed')");
    for (const row of saved) await tx.run('INSERT INTO settings (name, value) VALUES (?, ?)', [row.name, row.value]);
  });
  assert.notEqual(demoA.group_id, demoB.group_id);

  const fixture = async (name: 'A' | 'B', demo: DemoOutput): Promise<GroupFixture> => {
    const allKey = (await execute(createKey, s.p, contextFor(s.p, demo.group_id), { permissions: [...PERMISSIONS], name: `all ${name}` })).key;
    const auth = await s.call('POST', `/api/v1/groups/${demo.group_id}/transaction`, {
      key: allKey,
      body: saleBody(demo.processor_id, { type: 'auth', amount: AUTH_AMOUNT }),
    });
    assert.equal(auth.status, 200, auth.text);
    // The auth's own event (transaction.approved), newest in the log.
    const log = await s.call('GET', `/api/v1/groups/${demo.group_id}/events?limit=1`, { key: allKey });
    assert.equal(log.status, 200, log.text);
    // A webhook endpoint (nothing listens on port 9; it takes no event the suites cause).
    const hook = await s.call('POST', `/api/v1/groups/${demo.group_id}/webhook_endpoints`, {
      key: allKey,
      body: { url: 'http://127.0.0.1:9/hooks', enabled_events: ['signup_entry.created'] },
    });
    assert.equal(hook.status, 200, hook.text);
    // Fault rules (an API one, one of the endpoint) that are never active: their window is in year 9999.
    const never = { from: '9999-01-01T00:00:00Z' };
    const apiRule = await s.call('POST', `/api/v1/sandboxes/${demo.group_id}/faults`, { key: allKey, body: { operation: 'void', action: 'latency', ms: 0, ...never } });
    assert.equal(apiRule.status, 201, apiRule.text);
    const hookRule = await s.call('POST', `/api/v1/groups/${demo.group_id}/webhook_endpoints/${hook.body.id}/faults`, { key: allKey, body: { action: 'drop', ...never } });
    assert.equal(hookRule.status, 201, hookRule.text);
    const extra = {
      transaction_id: auth.body.id as string,
      event_id: log.body.data.items[0].id as string,
      endpoint_id: hook.body.id as string,
      fault_id: apiRule.body.id as string,
      webhook_fault_id: hookRule.body.id as string,
    };
    const ids: Record<string, string> = {};
    for (const [param, find] of Object.entries(PARAM_IDS)) {
      const id = find(demo, extra);
      if (id) ids[param] = id;
    }
    // Public routes: the invoice page's slug, and a pay-page asset name.
    if (ids.invoice_id) {
      const inv = await s.call('GET', `/api/v1/groups/${demo.group_id}/invoices/${ids.invoice_id}`, { key: allKey });
      if (typeof inv.body?.slug === 'string') ids.slug = inv.body.slug;
    }
    ids.file = 'pay.css';
    return { name, demo, groupId: demo.group_id, keys: demo.keys, allKey, ids };
  };
  const a = await fixture('A', demoA);
  const b = await fixture('B', demoB);
  const revoked = await execute(createKey, s.p, contextFor(s.p, a.groupId), { permissions: [...PERMISSIONS], name: 'revoked' });
  await execute(revokeKey, s.p, contextFor(s.p, undefined), { key_id: revoked.id });
  return { s, a, b, revokedKey: revoked.key };
}

// ---------------------------------------------------------------------------
// Valid bodies. A body builder reads the ids it references from `ids` (a group's ids,
// possibly with some swapped for the other group's); the isolation suite records which
// ids a builder reads and swaps each in turn. Routes with object parameters need one
// (a 404 for another group's object must not be hidden behind a 400 for the body).

export type BodyBuilder = (w: World, ids: Record<string, string>) => unknown;

const routeKey = (method: string, path: string) => `${method} ${path}`;
const G = '/api/v1/groups/:group_id';
const REC = `${G}/processing/:linked_account_id/recurring`;

const validBodies: Record<string, BodyBuilder> = {
  [routeKey('POST', `${G}/customers`)]: () => ({ first_name: 'Fixture', last_name: 'Customer', email: 'fixture@example.com' }),
  // A sale on the customer's stored card: references the processor, the customer and the card.
  [routeKey('POST', `${G}/transaction`)]: (_w, ids) => ({
    ...saleBody(ids.processor_id!),
    billing_address: undefined,
    payment_details: { customer: { customer_id: ids.customer_id, card_id: ids.card_id } },
  }),
  [routeKey('POST', `${G}/transaction/:transaction_id/capture`)]: () => ({ amount: AUTH_AMOUNT }),
  [routeKey('POST', `${G}/transaction/:transaction_id/refund`)]: () => ({}),
  [routeKey('POST', `${G}/processing/:linked_account_id/customers/:customer_id/payment_methods/card`)]: () => ({
    token: 'tok_visa',
    billing_address: CARD_ADDRESS,
  }),
  [routeKey('POST', `${G}/products`)]: () => productBody(),
  [routeKey('POST', `${G}/webhook_endpoints`)]: () => ({ url: 'http://127.0.0.1:9/hooks', enabled_events: ['signup_entry.created'] }),
  [routeKey('PATCH', `${G}/webhook_endpoints/:endpoint_id`)]: () => ({ description: 'patched by the isolation suite' }),
  [routeKey('POST', `${G}/events/:event_id/resend`)]: (_w, ids) => ({ endpoint_id: ids.endpoint_id }),
  [routeKey('POST', `${G}/webhook_endpoints/:endpoint_id/faults`)]: () => ({ action: 'drop', from: '9999-01-01T00:00:00Z' }),
  [routeKey('POST', '/api/v1/sandboxes/:group_id/faults')]: () => ({ operation: 'void', action: 'latency', ms: 0, from: '9999-01-01T00:00:00Z' }),
  [routeKey('PUT', `${G}/products/:product_id`)]: () => productBody(),
  [routeKey('POST', `${G}/invoices`)]: (_w, ids) => ({
    partner_id: ids.partner_id,
    due_date: dueDate(),
    processor_id: ids.processor_id,
    card_enabled: true,
    ach_enabled: false,
    products: [{ product_id: ids.product_id, quantity: 2 }],
  }),
  // The update repeats the product copies of the lines (spec 9): build them from group A's invoice.
  [routeKey('PUT', `${G}/invoices/:invoice_id`)]: async (w, ids) => {
    const inv = await w.s.call('GET', `/api/v1/groups/${w.a.groupId}/invoices/${w.a.ids.invoice_id}`, { key: w.a.allKey });
    assert.equal(inv.status, 200, inv.text);
    return {
      due_date: dueDate(),
      processor_id: ids.processor_id,
      card_enabled: true,
      ach_enabled: true,
      note: 'updated by the isolation suite',
      products: (inv.body.products as Array<Record<string, unknown>>).map((l) => ({
        id: l.id,
        product_id: l.product_id,
        name: l.name,
        description: l.description,
        amount: l.amount,
        included_tax_amount: l.included_tax_amount,
        unit_of_measure: l.unit_of_measure,
        quantity: l.quantity,
      })),
    };
  },
  [routeKey('POST', `${G}/partners`)]: () => ({
    company: 'Fixture Partner',
    first_name: 'Fix',
    last_name: 'Ture',
    line_1: '2 Side St',
    city: 'Springfield',
    subdivision: 'IL',
    postal_code: '62701',
    country: 'US',
    email: 'partner@example.com',
  }),
  [routeKey('POST', `${G}/payment-links`)]: (_w, ids) => ({ amount: 1500, description: 'fixture link', processor_id: ids.processor_id }),
  [routeKey('POST', `${REC}/plans`)]: () => planBody(),
  [routeKey('PUT', `${REC}/plans/:plan_id`)]: () => ({
    ...planBody(),
    description: 'updated by the isolation suite',
    update_subscriptions: false,
    prorate: false,
  }),
  [routeKey('POST', `${REC}/subscription`)]: (_w, ids) => ({ plan_id: ids.plan_id, customer_id: ids.customer_id, card_id: ids.card_id }),
  [routeKey('PUT', `${REC}/subscription/:subscription_id`)]: (_w, ids) => ({
    plan_id: ids.plan_id,
    processor_id: ids.processor_id,
    currency: 'USD',
    amounts: { requested_amount: 1999 },
    billing_address: US_BILLING,
    billing_cycle: 'monthly',
    duration: 0,
    max_retry_count: 3,
  }),
  // Public/session routes (hostile-input baselines).
  [routeKey('POST', '/api/v1/tokens')]: () => ({ card: { number: '4111111111111111', expiration_month: 12, expiration_year: 2039, cvv: '123' } }),
  [routeKey('POST', '/api/v1/payment-links/:payment_link_id/pay')]: () => ({ token: 'tok_visa', billing_address: US_BILLING }),
  [routeKey('POST', `${G}/payment-links/:payment_link_id/pay`)]: () => ({ token: 'tok_visa', billing_address: US_BILLING }),
  [routeKey('POST', '/api/v1/invoices/:slug/pay')]: () => ({ token: 'tok_visa' }),
};

function productBody() {
  return { name: 'Fixture product', description: 'A thing', amount: 1200, included_tax_amount: 100, unit_of_measure: 'pc' };
}
function planBody() {
  return { name: 'Fixture plan', amount: 1999, billing_cycle: 'monthly', duration: 0 };
}
function dueDate(): string {
  return new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
}

export function bodyBuilder(route: RouteDef): BodyBuilder | undefined {
  return validBodies[routeKey(route.method, route.path)];
}

/**
 * Valid query strings of routes that require query parameters (the isolation controls
 * and the paging tests start from these). A route with a required query parameter and
 * no entry here fails the isolation control loudly.
 */
const validQueries: Record<string, string> = {
  [routeKey('GET', `${G}/processing/:linked_account_id/transactions/reporting`)]: 'type=table',
};

export function baselineQuery(route: RouteDef): string {
  return validQueries[routeKey(route.method, route.path)] ?? '';
}

/**
 * Build a body with `ids`, recording which ids the builder read (its references to
 * other objects), so a test can swap each for another group's.
 */
export async function buildBody(w: World, builder: BodyBuilder, ids: Record<string, string>): Promise<{ body: unknown; refs: string[] }> {
  const read = new Set<string>();
  const proxy = new Proxy(ids, {
    get(target, prop) {
      if (typeof prop === 'string') read.add(prop);
      return target[prop as string];
    },
  });
  const body = await builder(w, proxy);
  return { body, refs: [...read] };
}

/** A permission set of every kind except the ones `route` accepts. */
export function permissionsWithout(route: RouteDef): Permission[] {
  const anyOf = route.auth.kind === 'key' ? route.auth.anyOf : [];
  return PERMISSIONS.filter((x) => !anyOf.includes(x));
}
