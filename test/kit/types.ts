// Compile-time half of the kit's tests: `payctl/client` and a sandbox's client are typed
// from the OpenAPI document. Each @ts-expect-error line must be an error, so `tsc` (the
// build) fails if a wrong field, a missing required one or a wrong path compiles.
import { createClient } from '../../src/client/index.js';
import type { Sandbox } from '../../src/testing/index.js';

export async function typed(sb: Sandbox, baseUrl: string): Promise<void> {
  const api = createClient({ baseUrl, key: 'sk_test_x' });
  const billing_address = { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com' };
  const body = {
    type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD', email_address: 'ada@example.com', email_receipt: false,
    amounts: { requested_amount: 1500 }, billing_address, payment_details: { token: 'tok_visa' },
  } as const;
  // The path parameters are required on the plain client …
  // @ts-expect-error params.path.group_id is missing
  await api.POST('/api/v1/groups/{group_id}/transaction', { body });
  // … and filled on a sandbox's client, where the other ones stay required.
  const r = await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body });
  if (r.data) {
    const status: 'pending' | 'authorized' | 'declined' | string = r.data.status;
    // @ts-expect-error a transaction has no field `amount_cents`
    void r.data.amount_cents;
    void status;
  }
  // @ts-expect-error requested_amount must be a number
  await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: { ...body, amounts: { requested_amount: '15.00' } } });
  // @ts-expect-error `amout` is not a field of the request
  await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: { ...body, amout: 1 } });
  const { processor_id: _missing, ...noProcessor } = body;
  // @ts-expect-error processor_id is required
  await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: noProcessor });
  // @ts-expect-error customer_id is required in the path of this operation
  await sb.client.GET('/api/v1/groups/{group_id}/customers/{customer_id}', {});
  await sb.client.GET('/api/v1/groups/{group_id}/customers/{customer_id}', { params: { path: { customer_id: 'c' } } });
  // @ts-expect-error no such path
  await sb.client.GET('/api/v1/groups/{group_id}/transactionz');
}

/** Events, keys and `request` are typed from the OpenAPI document (its event schemas and operations). */
export async function typedEvents(sb: Sandbox): Promise<void> {
  const settled = await sb.webhooks.next('transaction.settled');
  // data.object is the settled transaction: its fields are typed …
  const amount: number = settled.data.object.amounts.captured_amount;
  const type: 'transaction.settled' = settled.type;
  // @ts-expect-error … and a field a transaction does not have is an error
  void settled.data.object.no_such_field;
  // @ts-expect-error an event type payctl does not send is an error
  await sb.webhooks.next('transaction.setled');
  // A glob gives the events it names; a predicate any event.
  const tx = await sb.webhooks.next('transaction.*');
  const txType: `transaction.${string}` = tx.type;
  await sb.webhooks.next((e) => e.type === 'customer.created');
  const all: { data: { object: { id: string } } }[] = sb.webhooks.all('transaction.settled');
  // @ts-expect-error all() of an unknown event type
  sb.webhooks.all('invoice.payd');
  // @ts-expect-error none() of an unknown event type
  await sb.webhooks.none('customer.creatd');
  void amount, type, txType, all;

  // sb.keys: the permission names are its keys.
  const key: string = sb.keys.manage_webhooks;
  // @ts-expect-error no such permission
  void sb.keys.manage_everything;
  void key;

  // sb.request: a known template's method and body are checked.
  const billing_address = { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com' };
  const sale = {
    type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD', email_address: 'ada@example.com', email_receipt: false,
    amounts: { requested_amount: 1500 }, billing_address, payment_details: { token: 'tok_visa' },
  } as const;
  await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: sale });
  // @ts-expect-error requested_amount must be a number
  await sb.request('POST', '/api/v1/groups/{group_id}/transaction', { body: { ...sale, amounts: { requested_amount: '15.00' } } });
  // @ts-expect-error the operation takes a body: it is required
  await sb.request('POST', '/api/v1/groups/{group_id}/transaction');
  // @ts-expect-error no such path template
  await sb.request('GET', '/api/v1/groups/{group_id}/transactionz');
  // @ts-expect-error the template answers POST only
  await sb.request('PUT', '/api/v1/groups/{group_id}/transaction', { body: sale });
  // A filled path (no template) is sent as it is.
  await sb.request('GET', `/api/v1/groups/${sb.groupId}/transactions`);
}
