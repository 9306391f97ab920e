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
