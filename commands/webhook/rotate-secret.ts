import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { rotateWebhookSecret } from '../../src/services/webhooks/endpoints.js';
import type { WebhookEndpoint } from '../../src/domain/webhooks.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class WebhookRotateSecret extends PayctlCommand {
  static override description = "Replace the signing secret of a webhook endpoint (printed once; later deliveries are signed with it, and for 24 h of the group's clock with the old one too)";
  static override examples = ['<%= config.bin %> webhook rotate-secret ENDPOINT_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'endpoint id (from webhook list)', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<WebhookEndpoint> {
    const { args, flags } = await this.parse(WebhookRotateSecret);
    const p = await this.platform(flags.db);
    const endpoint = await execute(rotateWebhookSecret, p, contextFor(p, flags.group), { endpoint_id: args.id });
    this.log(`New signing secret of ${endpoint.id} (shown once): ${endpoint.secret}`);
    return endpoint;
  }
}
