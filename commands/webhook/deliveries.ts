import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listWebhookAttempts } from '../../src/services/webhooks/endpoints.js';
import type { WebhookAttemptList } from '../../src/domain/webhooks.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { limitFlag, startingAfterFlag } from '../../src/cli/flags/paging.js';
import { attemptTable } from '../../src/render/webhooks.js';

export default class WebhookDeliveries extends PayctlCommand {
  static override description = 'The delivery attempts made to a webhook endpoint, newest first: status, response code, latency, next retry';
  static override examples = ['<%= config.bin %> webhook deliveries ENDPOINT_ID --group GROUP_ID', '<%= config.bin %> webhook deliveries ENDPOINT_ID --group GROUP_ID --limit 10 --json'];
  static override args = { id: Args.string({ description: 'endpoint id (from webhook list)', required: true }) };
  static override flags = {
    group: groupFlag,
    limit: limitFlag,
    'starting-after': startingAfterFlag('attempt'),
  };

  async run(): Promise<WebhookAttemptList> {
    const { args, flags } = await this.parse(WebhookDeliveries);
    const p = await this.platform(flags.db);
    const result = await execute(listWebhookAttempts, p, contextFor(p, flags.group), {
      endpoint_id: args.id,
      limit: flags.limit,
      starting_after: flags['starting-after'],
    });
    this.log(result.data.items.length ? attemptTable(result.data.items) : 'No attempts yet.');
    if (result.data.has_more) this.log(`more: --starting-after ${result.data.items.at(-1)!.id}`);
    return result;
  }
}
