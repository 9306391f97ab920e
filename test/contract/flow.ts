// One complete flow through the 15 operations of the platform specification and the
// extensions, driven by a client generated from the OpenAPI document (openapi-fetch
// over the openapi-typescript types in schema.ts). It compiles only while the document
// describes what the flow sends and reads; at run time every answer is validated
// against the document's schema for its operation and status (validate.ts): a field
// the server returns that the document omits fails, as does a required one it leaves out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { answerChecker, streamMessageChecker } from './validate.js';
import { dataFile } from '../../src/lib/paths.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { CARD_ADDRESS, US_BILLING as ADDRESS } from '../helpers/bodies.js';
import type { TestServer } from '../helpers/server.js';

/** What the flow needs of the server it runs against. */
export interface FlowWorld {
  baseUrl: string;
  groupId: string;
  processorId: string;
  linkedAccountId: string;
  customerId: string;
  signupFormId: string;
  keys: Record<string, string>;
  /** The sandbox admin token of the server. */
  adminToken: string;
  /** Move the platform clock past a settlement cutoff and run the due work. */
  settle(): Promise<void>;
}

/** The world of a test server with the demo data. */
export function demoWorld(s: TestServer, adminToken: string): FlowWorld {
  return {
    baseUrl: s.url,
    groupId: s.demo.group_id,
    processorId: s.demo.processor_id,
    linkedAccountId: s.demo.linked_account_id,
    customerId: s.demo.customer_id,
    signupFormId: s.demo.signup_form_id as string,
    keys: s.demo.keys,
    adminToken,
    settle: async () => void (await advanceClock(s.p, 2 * 86_400_000)),
  };
}

export interface Exchange {
  method: string;
  schemaPath: string;
  status: number;
  requestBody: unknown;
  responseBody: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/** Validates each answer against the document; reports every exchange to `observe`. */
function contractMiddleware(doc: Doc, observe: (x: Exchange) => void): Middleware {
  const check = answerChecker(doc);
  const requests = new Map<string, unknown>();
  return {
    async onRequest({ request, id }) {
      const text = request.body ? await request.clone().text() : '';
      // A JSON body is kept with its answer; a file (a sandbox import's JSON lines) is not.
      const json = (request.headers.get('content-type') ?? '').includes('json') && !request.headers.get('content-type')?.includes('ndjson');
      requests.set(id, text && json ? JSON.parse(text) : undefined);
    },
    async onResponse({ request, response, schemaPath, id }) {
      let responseBody: unknown;
      await check(request.method, schemaPath, response.status, response.headers.get('content-type') ?? '', async () => (responseBody = await response.clone().json()));
      if (responseBody !== undefined) observe({ method: request.method, schemaPath, status: response.status, requestBody: requests.get(id), responseBody });
    },
  };
}

/** The answer's data, after checking its status. */
async function expect<T extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<T>,
  status: number,
): Promise<NonNullable<T['data']>> {
  const r = await call;
  assert.equal(r.response.status, status, `${r.response.url}: ${JSON.stringify(r.error ?? r.data)}`);
  return r.data as NonNullable<T['data']>;
}

export async function runFlow(world: FlowWorld, doc: Doc, observe: (x: Exchange) => void = () => undefined): Promise<void> {
  const api = createClient<paths>({ baseUrl: world.baseUrl, querySerializer: { array: { style: 'form', explode: false } } });
  api.use(contractMiddleware(doc, observe));
  const key = (permission: string) => ({ Authorization: world.keys[permission]! });
  const group = { group_id: world.groupId };
  const account = { group_id: world.groupId, linked_account_id: world.linkedAccountId };
  const nextYear = new Date().getUTCFullYear() + 3;

  // Meta and tokenizer (extensions).
  await expect(api.GET('/api/v1/openapi.json'), 200);
  assert.equal((await expect(api.GET('/health'), 200)).status, 'ok');
  assert.equal((await expect(api.GET('/ready'), 200)).status, 'ready');
  const card = await expect(
    api.POST('/api/v1/tokens', { body: { card: { number: '4111111111111111', expiration_month: 12, expiration_year: nextYear, cvv: '123', holder_name: 'Ada Lovelace' } } }),
    200,
  );
  assert.equal(card.card?.last_four, '1111');
  const bank = await expect(
    api.POST('/api/v1/tokens', { body: { bank_account: { routing_number: '021000021', account_number: '000123456789', account_type: 'checking', holder_name: 'Ada Lovelace' } } }),
    200,
  );
  assert.equal(bank.type, 'bank_account');

  // Customers: create and get (extensions), spec 3 Add Card.
  const customer = await expect(
    api.POST('/api/v1/groups/{group_id}/customers', {
      params: { path: group },
      headers: key('manage_customers'),
      body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', billing_address: CARD_ADDRESS },
    }),
    200,
  );
  const storedCard = await expect(
    api.POST('/api/v1/groups/{group_id}/processing/{linked_account_id}/customers/{customer_id}/payment_methods/card', {
      params: { path: { ...account, customer_id: customer.id } },
      headers: key('manage_customers'),
      body: { token: 'tok_mastercard', billing_address: CARD_ADDRESS },
    }),
    200,
  );
  const readCustomer = await expect(
    api.GET('/api/v1/groups/{group_id}/customers/{customer_id}', { params: { path: { ...group, customer_id: customer.id } }, headers: key('manage_customers') }),
    200,
  );
  assert.deepEqual(readCustomer.cards.map((c) => c.card_id), [storedCard.card_id]);

  // Spec 1 Sale, spec 2 Capture (both variants), get, void, refund (extensions).
  const saleBody = {
    type: 'sale' as const,
    source: 'api' as const,
    processor_id: world.processorId,
    currency: 'USD' as const,
    email_address: 'buyer@example.com',
    email_receipt: false,
    amounts: { requested_amount: 1234, included_tax_amount: 100 },
    billing_address: ADDRESS,
    payment_details: { token: card.token },
  };
  const sale = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction', { params: { path: group, header: { 'Idempotency-Key': `flow-${Date.now()}` } }, headers: key('manage_transactions'), body: saleBody }),
    200,
  );
  assert.equal(sale.status, 'pending');
  const auth = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction', {
      params: { path: group },
      headers: key('manage_transactions'),
      body: { ...saleBody, type: 'auth', payment_details: { token: 'tok_visa' } },
    }),
    200,
  );
  assert.equal(auth.status, 'authorized');
  const captured = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction/{transaction_id}/capture', {
      params: { path: { ...group, transaction_id: auth.id } },
      headers: key('manage_transactions'),
      body: {
        ...saleBody,
        type: 'auth',
        amounts: { requested_amount: 1234, captured_amount: 1000 },
        billing_address: ADDRESS,
        payment_details: { token: 'tok_visa' },
      },
    }),
    200,
  );
  assert.equal(captured.status, 'partially_captured');
  const auth2 = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction', { params: { path: group }, headers: key('manage_transactions'), body: { ...saleBody, type: 'auth', payment_details: { token: 'tok_visa' } } }),
    200,
  );
  const capturedB = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction/{transaction_id}/capture', {
      params: { path: { ...group, transaction_id: auth2.id } },
      headers: key('manage_transactions'),
      body: { amount: auth2.amounts.authorized_amount },
    }),
    200,
  );
  assert.equal(capturedB.status, 'captured');
  const read = await expect(
    api.GET('/api/v1/groups/{group_id}/transaction/{transaction_id}', { params: { path: { ...group, transaction_id: sale.id } }, headers: key('view_transactions') }),
    200,
  );
  assert.equal(read.id, sale.id);
  const voided = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction/{transaction_id}/void', { params: { path: { ...group, transaction_id: sale.id } }, headers: key('manage_transactions') }),
    200,
  );
  assert.equal(voided.status, 'voided');

  // Spec 13 Reporting: the three result shapes, list filters in the comma form.
  const reportPath = '/api/v1/groups/{group_id}/processing/{linked_account_id}/transactions/reporting' as const;
  const table = await expect(
    api.GET(reportPath, { params: { path: account, query: { type: 'table', limit: 5, offset: 0, statuses: ['voided', 'captured'] } }, headers: key('view_transactions') }),
    200,
  );
  assert.ok('items' in table && table.items.some((t) => t.id === sale.id));
  const count = await expect(api.GET(reportPath, { params: { path: account, query: { type: 'count', brands: ['Visa', 'Mastercard'] } }, headers: key('view_transactions') }), 200);
  assert.ok('total_count' in count && count.total_count > 0);
  const sum = await expect(api.GET(reportPath, { params: { path: account, query: { type: 'amount_sum' } }, headers: key('view_transactions') }), 200);
  assert.ok('total_amount' in sum);
  // The summary extension: per status, with the same list filters.
  const summary = await expect(
    api.GET('/api/v1/groups/{group_id}/transactions/reporting/summary', {
      params: { path: group, query: { group_by: 'status', brands: ['Visa', 'Mastercard'] } },
      headers: key('view_transactions'),
    }),
    200,
  );
  assert.equal(summary.total_count, count.total_count);

  // Refund (extension) of a settled transaction: the platform clock passes a cutoff.
  await world.settle();
  const refunded = await expect(
    api.POST('/api/v1/groups/{group_id}/transaction/{transaction_id}/refund', {
      params: { path: { ...group, transaction_id: captured.id } },
      headers: key('manage_transactions'),
      body: { amount: 100 },
    }),
    200,
  );
  assert.equal(refunded.status, 'partially_refunded');

  // Spec 4 Create Plan, spec 5 Update plan, get/list (extensions).
  const plan = await expect(
    api.POST('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/plans', {
      params: { path: account },
      headers: key('manage_transactions'),
      body: { name: 'Gold', amount: 3000, billing_cycle: 'monthly', duration: 12, tax: 200, trial_period_days: 7, trial_amount: 100 },
    }),
    200,
  );
  const planPath = { ...account, plan_id: plan.id };
  const updatedPlan = await expect(
    api.PUT('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/plans/{plan_id}', {
      params: { path: planPath },
      headers: key('manage_transactions'),
      body: { name: 'Gold+', amount: 3500, billing_cycle: 'monthly', duration: 12, description: 'Gold, more', update_subscriptions: true, prorate: false },
    }),
    200,
  );
  assert.equal(updatedPlan.amount, 3500);
  await expect(api.GET('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/plans/{plan_id}', { params: { path: planPath }, headers: key('manage_transactions') }), 200);
  const plans = await expect(
    api.GET('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/plans', { params: { path: account, query: { limit: 10 } }, headers: key('manage_transactions') }),
    200,
  );
  assert.ok(plans.data.items.some((p) => p.id === plan.id));

  // Subscriptions: create, get, list, cancel (extensions), spec 6 Update subscription.
  const subscription = await expect(
    api.POST('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/subscription', {
      params: { path: account },
      headers: key('manage_transactions'),
      body: { plan_id: plan.id, customer_id: customer.id, card_id: storedCard.card_id },
    }),
    200,
  );
  const subPath = { ...account, subscription_id: subscription.id };
  const updatedSub = await expect(
    api.PUT('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/subscription/{subscription_id}', {
      params: { path: subPath },
      headers: key('manage_transactions'),
      body: {
        plan_id: plan.id,
        processor_id: subscription.processor_id,
        currency: 'USD',
        amounts: { requested_amount: 4000, included_tax_amount: 300 },
        billing_address: ADDRESS,
        billing_cycle: 'monthly',
        duration: 6,
        max_retry_count: 3,
      },
    }),
    200,
  );
  assert.equal(updatedSub.amounts.amount, 4000);
  await expect(api.GET('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/subscription/{subscription_id}', { params: { path: subPath }, headers: key('manage_transactions') }), 200);
  const subs = await expect(
    api.GET('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/subscription', {
      params: { path: account, query: { customer_id: customer.id } },
      headers: key('manage_transactions'),
    }),
    200,
  );
  assert.deepEqual(subs.data.items.map((x) => x.id), [subscription.id]);
  const canceled = await expect(
    api.POST('/api/v1/groups/{group_id}/processing/{linked_account_id}/recurring/subscription/{subscription_id}/cancel', { params: { path: subPath }, headers: key('manage_transactions') }),
    200,
  );
  assert.equal(canceled.status, 'canceled');

  // Products: create, list (extensions), spec 7 Get Product, spec 8 Update Product.
  const product = await expect(
    api.POST('/api/v1/groups/{group_id}/products', {
      params: { path: group },
      headers: key('manage_products'),
      body: { name: 'Espresso beans', description: '1 kg, dark roast', amount: 2500, included_tax_amount: 200, unit_of_measure: 'pc' },
    }),
    200,
  );
  const productPath = { ...group, product_id: product.id };
  await expect(api.GET('/api/v1/groups/{group_id}/products/{product_id}', { params: { path: productPath }, headers: key('manage_products') }), 200);
  const updatedProduct = await expect(
    api.PUT('/api/v1/groups/{group_id}/products/{product_id}', {
      params: { path: productPath },
      headers: key('manage_products'),
      body: { name: 'Espresso beans', description: '1 kg, dark roast', amount: 2600, included_tax_amount: 200, unit_of_measure: 'pc' },
    }),
    200,
  );
  assert.equal(updatedProduct.amount, 2600);
  await expect(api.GET('/api/v1/groups/{group_id}/products', { params: { path: group, query: { name: 'espresso' } }, headers: key('manage_products') }), 200);

  // Partners: create, get (extensions), spec 12 Get All Partners.
  const partner = await expect(
    api.POST('/api/v1/groups/{group_id}/partners', {
      params: { path: group },
      headers: key('manage_partners'),
      body: { company: 'Acme Roasters', first_name: 'Wile', last_name: 'Coyote', line_1: '1 Desert Rd', city: 'Tucson', subdivision: 'AZ', postal_code: '85701', country: 'US', email: 'wile@acme.example' },
    }),
    200,
  );
  await expect(api.GET('/api/v1/groups/{group_id}/partners/{partner_id}', { params: { path: { ...group, partner_id: partner.id } }, headers: key('manage_partners') }), 200);
  const partners = await expect(api.GET('/api/v1/groups/{group_id}/partners', { params: { path: group, query: { name: 'acme', limit: 10, offset: 0 } }, headers: key('manage_partners') }), 200);
  assert.ok(partners.data.items.some((p) => p.id === partner.id));

  // Invoices: create, list, get, pay (extensions); spec 9 Update (a read line sent back
  // unchanged), spec 11 Download PDF, spec 10 Archive.
  const invoice = await expect(
    api.POST('/api/v1/groups/{group_id}/invoices', {
      params: { path: group },
      headers: key('manage_invoices'),
      body: { partner_id: partner.id, due_date: `${nextYear}-01-31`, processor_id: world.processorId, card_enabled: true, ach_enabled: true, products: [{ product_id: product.id, quantity: 2 }] },
    }),
    200,
  );
  const invoicePath = { ...group, invoice_id: invoice.id };
  const updatedInvoice = await expect(
    api.PUT('/api/v1/groups/{group_id}/invoices/{invoice_id}', {
      params: { path: invoicePath },
      headers: key('manage_invoices'),
      body: {
        note: 'Thank you',
        due_date: invoice.due_date.slice(0, 10),
        processor_id: invoice.processor_id,
        card_enabled: invoice.card_enabled,
        ach_enabled: invoice.ach_enabled,
        products: [...invoice.products, { product_id: product.id, name: updatedProduct.name, description: updatedProduct.description, amount: updatedProduct.amount, included_tax_amount: updatedProduct.included_tax_amount, unit_of_measure: updatedProduct.unit_of_measure, quantity: 1 }],
      },
    }),
    200,
  );
  assert.equal(updatedInvoice.amount, 3 * 2600);
  await expect(api.GET('/api/v1/groups/{group_id}/invoices/{invoice_id}', { params: { path: invoicePath }, headers: key('view_invoices') }), 200);
  await expect(api.GET('/api/v1/groups/{group_id}/invoices', { params: { path: group, query: { partner_id: partner.id, status: 'pending' } }, headers: key('view_invoices') }), 200);
  const pdf = await api.GET('/api/v1/groups/{group_id}/invoices/{invoice_id}/download/pdf', { params: { path: invoicePath }, headers: key('view_invoices'), parseAs: 'arrayBuffer' });
  assert.equal(pdf.response.status, 200);
  assert.equal(Buffer.from(pdf.data!).subarray(0, 5).toString(), '%PDF-');
  const paid = await expect(api.POST('/api/v1/invoices/{slug}/pay', { params: { path: { slug: updatedInvoice.slug } }, body: { token: 'tok_visa' } }), 200);
  assert.equal(paid.status, 'paid');
  const archived = await expect(api.DELETE('/api/v1/groups/{group_id}/invoices/{invoice_id}', { params: { path: invoicePath }, headers: key('manage_invoices') }), 200);
  assert.equal(archived.status, 'archived');

  // Payment links: create, list, get, public retrieval (extensions), spec 14 Pay on
  // both paths, deactivate (extension).
  const link = await expect(
    api.POST('/api/v1/groups/{group_id}/payment-links', { params: { path: group }, headers: key('manage_transactions'), body: { amount: 2500, description: 'Concert ticket' } }),
    200,
  );
  const open = await expect(
    api.POST('/api/v1/groups/{group_id}/payment-links', { params: { path: group }, headers: key('manage_transactions'), body: { open_amount: true, description: 'Donation' } }),
    200,
  );
  await expect(api.GET('/api/v1/groups/{group_id}/payment-links', { params: { path: group, query: { status: 'available' } }, headers: key('manage_transactions') }), 200);
  await expect(api.GET('/api/v1/groups/{group_id}/payment-links/{payment_link_id}', { params: { path: { ...group, payment_link_id: link.id } }, headers: key('manage_transactions') }), 200);
  const session = await expect(api.GET('/api/v1/payment-links/{payment_link_id}', { params: { path: { payment_link_id: link.id } } }), 200);
  // A declined card: 400 with the processor's reason (the Error object), the link stays payable.
  const declined = await api.POST('/api/v1/payment-links/{payment_link_id}/pay', {
    params: { path: { payment_link_id: link.id } },
    headers: { Authorization: session.session_token },
    body: { token: 'tok_visa_declined', billing_address: ADDRESS },
  });
  assert.equal(declined.response.status, 400);
  assert.equal(declined.error?.error.code, 'payment_declined');
  assert.ok(declined.error?.error.response_text);
  const linkPaid = await expect(
    api.POST('/api/v1/payment-links/{payment_link_id}/pay', {
      params: { path: { payment_link_id: link.id } },
      headers: { Authorization: session.session_token },
      body: { token: 'tok_visa', billing_address: ADDRESS },
    }),
    200,
  );
  assert.equal(linkPaid.status, 'paid');
  const openSession = await expect(api.GET('/api/v1/payment-links/{payment_link_id}', { params: { path: { payment_link_id: open.id } } }), 200);
  await expect(
    api.POST('/api/v1/groups/{group_id}/payment-links/{payment_link_id}/pay', {
      params: { path: { ...group, payment_link_id: open.id } },
      headers: { Authorization: openSession.session_token },
      body: { token: 'tok_visa', billing_address: ADDRESS, amount: 1500 },
    }),
    200,
  );
  const third = await expect(
    api.POST('/api/v1/groups/{group_id}/payment-links', { params: { path: group }, headers: key('manage_transactions'), body: { amount: 900, description: 'Parking' } }),
    200,
  );
  const deactivated = await expect(
    api.POST('/api/v1/groups/{group_id}/payment-links/{payment_link_id}/deactivate', { params: { path: { ...group, payment_link_id: third.id } }, headers: key('manage_transactions') }),
    200,
  );
  assert.equal(deactivated.status, 'deactivated');

  // Events (extensions): the log of everything above, a page of one type and one event.
  const events = await expect(
    api.GET('/api/v1/groups/{group_id}/events', { params: { path: group, query: { types: ['payment_link.*'], limit: 5 } }, headers: key('manage_webhooks') }),
    200,
  );
  assert.ok(events.data.items.length > 0 && events.data.items.every((e) => e.type.startsWith('payment_link.')));
  const one = await expect(
    api.GET('/api/v1/groups/{group_id}/events/{event_id}', { params: { path: { ...group, event_id: events.data.items[0]!.id } }, headers: key('manage_webhooks') }),
    200,
  );
  assert.equal(one.id, events.data.items[0]!.id);
  // The live stream, resumed after the oldest event of that page: ready, then the events after it.
  const streamPath = '/api/v1/groups/{group_id}/events/stream';
  const oldest = events.data.items[events.data.items.length - 1]!;
  const stream = await api.GET(streamPath, {
    params: { path: group, query: { types: ['payment_link.*'] } },
    headers: { ...key('manage_webhooks'), 'Last-Event-ID': oldest.id },
    parseAs: 'stream',
  });
  assert.equal(stream.response.status, 200);
  assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const messages = await readSse(stream.response.body!, 2);
  const checkMessage = streamMessageChecker(doc);
  checkMessage(streamPath, 'ready', messages[0]!.data);
  checkMessage(streamPath, 'event', messages[1]!.data);
  assert.equal(messages[0]!.event, 'ready');
  assert.equal(messages[1]!.event, events.data.items[events.data.items.length - 2]!.type);
  assert.deepEqual(messages[1]!.data, events.data.items[events.data.items.length - 2]);
  observe({ method: 'GET', schemaPath: streamPath, status: 200, requestBody: undefined, responseBody: messages });

  // Webhooks (extensions): an endpoint's life, a resend of the event above, its attempts.
  const hooks = key('manage_webhooks');
  const endpoint = await expect(
    api.POST('/api/v1/groups/{group_id}/webhook_endpoints', {
      params: { path: group },
      headers: hooks,
      // Nothing listens on port 9: the attempts fail and are recorded.
      body: { url: 'http://127.0.0.1:9/hooks', enabled_events: ['payment_link.*', 'invoice.paid'], description: 'Shop backend' },
    }),
    200,
  );
  assert.match(endpoint.secret ?? '', /^whsec_/);
  const endpointPath = { ...group, endpoint_id: endpoint.id };
  const endpoints = await expect(api.GET('/api/v1/groups/{group_id}/webhook_endpoints', { params: { path: group, query: { limit: 10 } }, headers: hooks }), 200);
  assert.ok(endpoints.data.items.some((e) => e.id === endpoint.id));
  await expect(api.GET('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}', { params: { path: endpointPath }, headers: hooks }), 200);
  const patched = await expect(
    api.PATCH('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}', { params: { path: endpointPath }, headers: hooks, body: { enabled_events: ['*'] } }),
    200,
  );
  assert.deepEqual(patched.enabled_events, ['*']);
  await expect(api.POST('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}/rotate_secret', { params: { path: endpointPath }, headers: hooks }), 200);
  const resent = await expect(
    api.POST('/api/v1/groups/{group_id}/events/{event_id}/resend', { params: { path: { ...group, event_id: one.id } }, headers: hooks, body: { endpoint_id: endpoint.id } }),
    200,
  );
  assert.deepEqual(resent.endpoint_ids, [endpoint.id]);
  await expect(api.GET('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}/deliveries', { params: { path: endpointPath, query: { limit: 10 } }, headers: hooks }), 200);
  // Fault rules of the endpoint (extensions).
  const hookRule = await expect(
    api.POST('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}/faults', { params: { path: endpointPath }, headers: hooks, body: { action: 'delay', delay: '1h', count: 1 } }),
    201,
  );
  const hookRules = await expect(api.GET('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}/faults', { params: { path: endpointPath }, headers: hooks }), 200);
  assert.deepEqual(hookRules.data.map((r) => r.id), [hookRule.id]);
  await expect(
    api.DELETE('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}/faults/{webhook_fault_id}', { params: { path: { ...endpointPath, webhook_fault_id: hookRule.id } }, headers: hooks }),
    200,
  );
  await expect(api.DELETE('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}', { params: { path: endpointPath }, headers: hooks }), 200);

  // Sandboxes (extensions, admin token): create, list, clock, fork, drop.
  const admin = { Authorization: world.adminToken };
  const sandbox = await expect(api.POST('/api/v1/sandboxes', { headers: admin, body: { name: 'Contract sandbox', webhooks: 'collect' } }), 201);
  assert.match(sandbox.webhook_secret ?? '', /^whsec_/);
  const sandboxes = await expect(api.GET('/api/v1/sandboxes', { headers: admin }), 200);
  assert.ok(sandboxes.data.some((x) => x.group_id === sandbox.group_id));
  const sandboxPath = { group_id: sandbox.group_id };
  const clock = await expect(api.GET('/api/v1/sandboxes/{group_id}/clock', { params: { path: sandboxPath }, headers: admin }), 200);
  const inbox = await expect(api.GET('/api/v1/sandboxes/{group_id}/inbox', { params: { path: sandboxPath, query: { types: ['transaction.*'], wait: '0' } }, headers: admin }), 200);
  assert.deepEqual(inbox.data.items, []);
  const moved = await expect(api.POST('/api/v1/sandboxes/{group_id}/clock', { params: { path: sandboxPath }, headers: admin, body: { advance: '1d' } }), 200);
  assert.equal(Date.parse(moved.now) - Date.parse(clock.now) >= 86_400_000, true);
  // Fault rules of the sandbox (extensions): an injected 503 is a documented answer too.
  const rule = await expect(
    api.POST('/api/v1/sandboxes/{group_id}/faults', { params: { path: sandboxPath }, headers: admin, body: { operation: 'sale', action: 'error', status: 503, first: 1, seed: 1 } }),
    201,
  );
  assert.equal(rule.seed, 1);
  const faulted = await api.POST('/api/v1/groups/{group_id}/transaction', {
    params: { path: sandboxPath },
    headers: { Authorization: sandbox.keys.manage_transactions! },
    body: { ...saleBody, processor_id: sandbox.processor_id },
  });
  assert.equal(faulted.response.status, 503);
  assert.equal(faulted.error?.error.type, 'unavailable');
  assert.equal(faulted.response.headers.get('payctl-fault'), `error; status=503; rule=${rule.id}; call=1`);
  const rules = await expect(api.GET('/api/v1/sandboxes/{group_id}/faults', { params: { path: sandboxPath }, headers: admin }), 200);
  assert.equal(rules.data[0]?.fired, 1);
  await expect(api.DELETE('/api/v1/sandboxes/{group_id}/faults/{fault_id}', { params: { path: { ...sandboxPath, fault_id: rule.id } }, headers: admin }), 200);
  const fork = await expect(api.POST('/api/v1/sandboxes/{group_id}/fork', { params: { path: sandboxPath }, headers: admin, body: { name: 'Contract fork' } }), 201);
  const shown = await expect(api.GET('/api/v1/sandboxes/{group_id}', { params: { path: { group_id: fork.group_id } }, headers: admin }), 200);
  assert.equal(shown.status, 'active');
  // A recording of the sandbox's calls (its scenario form is checked by test/cli/scenario-recording.test.ts).
  await expect(api.POST('/api/v1/sandboxes/{group_id}/recording', { params: { path: sandboxPath }, headers: admin }), 201);
  await expect(api.DELETE('/api/v1/sandboxes/{group_id}/recording', { params: { path: sandboxPath }, headers: admin }), 200);
  await expect(api.GET('/api/v1/sandboxes/{group_id}/recording', { params: { path: sandboxPath }, headers: admin }), 200);
  // The request journal of the sandbox (docs/journal.md): the calls above, newest last.
  const requests = await expect(api.GET('/api/v1/sandboxes/{group_id}/requests', { params: { path: sandboxPath, query: { limit: 5 } }, headers: admin }), 200);
  assert.ok(requests.data.items.length > 0);
  // A sandbox as a file, and a new sandbox from it (the file is JSON lines, checked by its own test).
  const file = await api.GET('/api/v1/sandboxes/{group_id}/export', { params: { path: sandboxPath }, headers: admin, parseAs: 'text' });
  assert.equal(file.response.status, 200);
  const imported = await expect(
    api.POST('/api/v1/sandboxes/import', {
      params: { query: { name: 'Contract import' } },
      headers: { ...admin, 'Content-Type': 'application/x-ndjson' },
      body: file.data as unknown as string,
      bodySerializer: (text: string) => text,
    }),
    201,
  );
  assert.equal(imported.imported_from.group_id, sandbox.group_id);
  for (const id of [fork.group_id, sandbox.group_id, imported.group_id]) {
    const dropped = await expect(api.DELETE('/api/v1/sandboxes/{group_id}', { params: { path: { group_id: id } }, headers: admin }), 200);
    assert.equal(dropped.deleted, true);
  }

  // Spec 15 Onboarding (no key): 201.
  const entry = await expect(api.POST('/api/v1/processing/signup_entry', { body: signupEntry(world.signupFormId) }), 201);
  assert.equal(entry.status, 'pending_review');
}

/** The first `count` messages of a Server-Sent Events body (then the stream is cancelled). */
async function readSse(body: ReadableStream<Uint8Array>, count: number): Promise<Array<{ id?: string; event: string; data: unknown }>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const out: Array<{ id?: string; event: string; data: unknown }> = [];
  let text = '';
  while (out.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while (out.length < count && (end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
      }
      if (!fields.has('data')) continue;
      out.push({ id: fields.get('id'), event: fields.get('event') ?? 'message', data: JSON.parse(fields.get('data')!) });
    }
  }
  await reader.cancel();
  return out;
}

type SignupEntry = paths['/api/v1/processing/signup_entry']['post']['requestBody']['content']['application/json'];

/** The example signup entry of docs/onboarding.md (an LLC accepting card and ACH) on this server's form. */
function signupEntry(formId: string): SignupEntry {
  const entry = JSON.parse(readFileSync(dataFile('examples', 'signup-entry.json'), 'utf8')) as SignupEntry;
  return { ...entry, signup_form_id: formId };
}
