// Export → import gives the same sandbox: every list, the report in its three shapes (and
// the summary), the event log, the fault rules and webhook endpoints answer the same in
// the import as in its source, ids mapped; then the next billing run (a month's clock
// move on both) does the same work and leaves the same answers. "Ids mapped": each id is
// replaced by the order it first appears in across all the answers, so the two sandboxes'
// answers are equal exactly when the ids correspond one to one. The platform's Date is
// held still (node:test mock timers), so both sandboxes' clocks read the same instant and
// the rows a billing run makes carry the same times.
import { after, before, mock, test } from 'node:test';
import assert from 'node:assert/strict';

// Before the platform is made: its clock reads Date.now (src/services/clock/clock.ts).
mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-28T12:00:00.000Z') });

const { startTestServer } = await import('../helpers/server.js');
const { ADMIN, newSandbox } = await import('../helpers/sandboxes.js');
const { saleBody } = await import('../helpers/bodies.js');
type TestServer = Awaited<ReturnType<typeof startTestServer>>;
type SandboxReply = Awaited<ReturnType<typeof newSandbox>>;

let s: TestServer;
after(async () => {
  await s?.close();
  mock.timers.reset();
});

const WINDOW = 'start=2000-01-01&end=2100-01-01';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

interface Box {
  group_id: string;
  linked_account_id: string;
  keys: Record<string, string>;
}

async function get(sb: Box, path: string, key: string) {
  const r = await s.call('GET', path.replace('{g}', sb.group_id).replace('{a}', sb.linked_account_id), { key });
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r.body;
}

/** Every event of a sandbox, newest first (all pages). */
async function events(sb: Box) {
  const out: Array<{ id: string }> = [];
  for (let after = ''; ; ) {
    const page = await get(sb, `/api/v1/groups/{g}/events?limit=1000${after ? `&starting_after=${after}` : ''}`, sb.keys.manage_webhooks!);
    out.push(...page.data.items);
    if (!page.data.has_more) return out;
    after = page.data.items[page.data.items.length - 1].id;
  }
}

/** What a client can read of a sandbox: every list, the report's shapes, the events, its rules and endpoints. */
async function answers(sb: Box): Promise<Record<string, unknown>> {
  const k = sb.keys;
  const out: Record<string, unknown> = {};
  for (const type of ['table', 'count', 'amount_sum']) {
    out[`report ${type}`] = await get(sb, `/api/v1/groups/{g}/processing/{a}/transactions/reporting?type=${type}&limit=1000&${WINDOW}`, k.view_transactions!);
  }
  for (const by of ['day', 'status', 'brand', 'payment_method', 'source']) {
    out[`summary ${by}`] = await get(sb, `/api/v1/groups/{g}/transactions/reporting/summary?group_by=${by}&${WINDOW}`, k.view_transactions!);
  }
  out.plans = await get(sb, '/api/v1/groups/{g}/processing/{a}/recurring/plans?limit=1000', k.manage_transactions!);
  out.subscriptions = await get(sb, '/api/v1/groups/{g}/processing/{a}/recurring/subscription?limit=1000', k.manage_transactions!);
  out.products = await get(sb, '/api/v1/groups/{g}/products?limit=1000', k.manage_products!);
  out.partners = await get(sb, '/api/v1/groups/{g}/partners?limit=1000', k.manage_partners!);
  out.invoices = await get(sb, '/api/v1/groups/{g}/invoices?limit=1000', k.view_invoices!);
  out.payment_links = await get(sb, '/api/v1/groups/{g}/payment-links?limit=1000', k.manage_transactions!);
  out.webhook_endpoints = await get(sb, '/api/v1/groups/{g}/webhook_endpoints?limit=1000', k.manage_webhooks!);
  out.faults = await get(sb, '/api/v1/sandboxes/{g}/faults', ADMIN);
  out.events = await events(sb);
  // The objects with no list: each customer the transactions name.
  const table = out['report table'] as { items: Array<{ customer_id?: string | null }> };
  const customers = [...new Set(table.items.map((t) => t.customer_id).filter((c): c is string => !!c))];
  out.customers = await Promise.all(customers.map((c) => get(sb, `/api/v1/groups/{g}/customers/${c}`, k.manage_customers!)));
  out.clock = (await get(sb, '/api/v1/sandboxes/{g}/clock', ADMIN)).now;
  return out;
}

/** The answers with each id replaced by the order it first appears in (and invoice page slugs, which are new secrets, masked). */
function canonical(a: Record<string, unknown>): { text: string; ids: Map<string, number> } {
  const ids = new Map<string, number>();
  let text = JSON.stringify(a, null, 1).replace(UUID, (id) => {
    if (!ids.has(id)) ids.set(id, ids.size);
    return `#${ids.get(id)}`;
  });
  // A slug is where it appears (its field, the page URLs made of it).
  for (const [, slug] of text.matchAll(/"slug": "([A-Za-z0-9_-]+)"/g)) text = text.replaceAll(slug!, 'SLUG');
  return { text, ids };
}

function assertSame(source: Record<string, unknown>, copy: Record<string, unknown>, idMap: Record<string, string> = {}) {
  const a = canonical(source);
  const b = canonical(copy);
  // Line by line first, so a failure shows where they part.
  const aParts = a.text.split('\n');
  const bParts = b.text.split('\n');
  const first = aParts.findIndex((line, i) => line !== bParts[i]);
  assert.equal(first, -1, `first difference at line ${first}: ${aParts[first]} vs ${bParts[first]}`);
  assert.equal(a.text, b.text);
  // The answer's id map agrees with the correspondence the answers show.
  for (const [old, fresh] of Object.entries(idMap)) {
    if (a.ids.has(old)) assert.equal(b.ids.get(fresh), a.ids.get(old), `id_map ${old} → ${fresh}`);
  }
}

test('export → import: the same lists, reports, events and rules, ids mapped; the next billing run does the same in both', async () => {
  s = await startTestServer({ adminToken: ADMIN, env: { ...process.env, PAYCTL_IMPORT_ANSWER_MS: '600000' } });
  const source = await newSandbox(s, { demo: true, name: 'fidelity', clock: '2030-01-01T00:00:00Z' });
  const k = source.keys;
  const path = `/api/v1/groups/${source.group_id}`;
  // History beyond the demo: sales, an auth captured, a declined one, a webhook endpoint and a fault rule (with a seed).
  const sale = await s.call('POST', `${path}/transaction`, { key: k.manage_transactions, body: saleBody(source.processor_id, { amount: 5000 }) });
  assert.equal(sale.status, 200, sale.text);
  const auth = await s.call('POST', `${path}/transaction`, { key: k.manage_transactions, body: saleBody(source.processor_id, { type: 'auth', amount: 800 }) });
  assert.equal((await s.call('POST', `${path}/transaction/${auth.body.id}/capture`, { key: k.manage_transactions, body: { amount: 800 } })).status, 200);
  await s.call('POST', `${path}/transaction`, { key: k.manage_transactions, body: saleBody(source.processor_id, { token: 'tok_visa_declined' }) });
  const hook = await s.call('POST', `${path}/webhook_endpoints`, { key: k.manage_webhooks, body: { url: 'http://127.0.0.1:9/hook', enabled_events: ['subscription.*'] } });
  assert.equal(hook.status, 200, hook.text);
  assert.equal((await s.call('POST', `/api/v1/sandboxes/${source.group_id}/faults`, { key: ADMIN, body: { operation: 'capture', action: 'error', status: 503, rate: 0.5, seed: 7 } })).status, 201);
  // Two days on: batches settle; then a partial refund of the settled sale.
  assert.equal((await s.call('POST', `/api/v1/sandboxes/${source.group_id}/clock`, { key: ADMIN, body: { advance: '2d' } })).status, 200);
  const refund = await s.call('POST', `${path}/transaction/${sale.body.id}/refund`, { key: k.manage_transactions, body: { amount: 1200 } });
  assert.equal(refund.status, 200, refund.text);

  const file = await (await fetch(`${s.url}/api/v1/sandboxes/${source.group_id}/export`, { headers: { authorization: ADMIN } })).text();
  const res = await fetch(`${s.url}/api/v1/sandboxes/import`, { method: 'POST', headers: { authorization: ADMIN, 'content-type': 'application/x-ndjson' }, body: file });
  const copy = (await res.json()) as SandboxReply & { id_map: Record<string, string>; rows: Record<string, number> };
  assert.equal(res.status, 201, JSON.stringify(copy));
  assert.ok(copy.rows.transactions! >= 6 && copy.rows.events! >= 20 && copy.rows.subscriptions! >= 1, JSON.stringify(copy.rows));

  const before = await answers(source);
  assert.ok((before.events as unknown[]).length >= 20);
  assertSame(before, await answers(copy), copy.id_map);

  // The next billing run: a month on in each; the same work, the same answers after it.
  const moves = [];
  for (const sb of [source, copy]) {
    const moved = await s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body: { advance: '31d' } });
    assert.equal(moved.status, 200, moved.text);
    moves.push(moved.body.work);
  }
  assert.ok(moves[0]['subscription-billing'] > 0, JSON.stringify(moves[0]));
  assert.deepEqual(moves[1], moves[0]);
  assertSame(await answers(source), await answers(copy), copy.id_map);
});
