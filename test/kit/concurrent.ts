// Many tests at once on one server, each the way a suite's test would be: its own
// sandbox, a sale, a clock move past the settlement cutoff and the settled webhook
// awaited. Shared by the 200-test run of the suite (all green, wall time reported) and
// `npm run bench` (latency to the first verified webhook, the server's memory after).
import { performance } from 'node:perf_hooks';
import type { Payctl } from '../../src/testing/index.js';

export const BILLING = { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com' };

export interface OneTest {
  /** From the sandbox request to the first verified webhook (transaction.approved), ms. */
  firstWebhookMs: number;
  /** The whole test: sandbox, sale, clock move, settled webhook, drop, ms. */
  totalMs: number;
}

/** One test's work; throws (with the kit's message) when anything it awaits does not come. */
export async function oneTest(payctl: Payctl, timeoutMs: number): Promise<OneTest> {
  const started = performance.now();
  const sb = await payctl.sandbox();
  try {
    const sale = await sb.client.POST('/api/v1/groups/{group_id}/transaction', {
      body: {
        type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD', email_address: 'ada@example.com', email_receipt: false,
        amounts: { requested_amount: 1500 }, billing_address: BILLING, payment_details: { token: 'tok_visa' },
      },
    });
    if (!sale.data) throw new Error(`sale answered ${sale.response.status}: ${JSON.stringify(sale.error)}`);
    await sb.webhooks.next('transaction.approved', { timeout: timeoutMs });
    const firstWebhookMs = performance.now() - started;
    await sb.clock.advance('2d');
    const settled = await sb.webhooks.next('transaction.settled', { timeout: timeoutMs });
    if (settled.data.object.id !== sale.data.id) throw new Error(`settled ${settled.data.object.id}, expected ${sale.data.id}`);
    return { firstWebhookMs, totalMs: performance.now() - started };
  } finally {
    await sb.drop();
  }
}
