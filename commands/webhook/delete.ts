import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { deleteWebhookEndpoint } from '../../src/services/webhooks/endpoints.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class WebhookDelete extends PayctlCommand {
  static override description = 'Delete a webhook endpoint with its waiting deliveries and its attempts';
  static override examples = ['<%= config.bin %> webhook delete ENDPOINT_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'endpoint id (from webhook list)', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<{ id: string; deleted: true }> {
    const { args, flags } = await this.parse(WebhookDelete);
    const p = await this.platform(flags.db);
    const result = await execute(deleteWebhookEndpoint, p, contextFor(p, flags.group), { endpoint_id: args.id });
    this.log(`Deleted webhook endpoint ${result.id}`);
    return result;
  }
}
