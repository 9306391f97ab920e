// expect_webhooks' receiver: the verifying collector of payctl/testing (one HTTP server
// per process on 127.0.0.1), made an endpoint of the run's sandbox for every event at the
// first expect_webhooks step. Only deliveries whose Standard Webhooks signature verifies
// with the endpoint's secret are counted; the endpoint stays with the sandbox.
import { collector, type Inbox } from '../testing/webhooks.js';
import type { WebhookSource } from './scenario-run.js';

export function collectorSource(groupId: string): WebhookSource {
  let inbox: Inbox | undefined;
  return {
    async start(call) {
      const c = await collector();
      const made = await call('POST', `/api/v1/groups/${groupId}/webhook_endpoints`, { url: c.urlOf(groupId), enabled_events: ['*'], description: 'payctl scenario run' }, 'manage_webhooks');
      const secret = (made.body as { secret?: string } | undefined)?.secret;
      if (made.status !== 200 || !secret) throw new Error(`making the run's webhook endpoint answered ${made.status}: ${made.text.slice(0, 300)}`);
      inbox = c.open(groupId, secret);
    },
    received: () => inbox?.all() ?? [],
  };
}
