import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listWebhookEndpoints } from '../../src/services/webhooks/endpoints.js';
import type { WebhookEndpointList } from '../../src/domain/webhooks.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { limitFlag, startingAfterFlag } from '../../src/cli/flags/paging.js';
import { endpointTable } from '../../src/render/webhooks.js';

export default class WebhookList extends PayctlCommand {
  static override description = 'List the webhook endpoints of a group, newest first (secrets are not shown)';
  static override examples = ['<%= config.bin %> webhook list --group GROUP_ID', '<%= config.bin %> webhook list --group GROUP_ID --json'];
  static override flags = {
    group: groupFlag,
    limit: limitFlag,
    'starting-after': startingAfterFlag('endpoint'),
  };

  async run(): Promise<WebhookEndpointList> {
    const { flags } = await this.parse(WebhookList);
    const p = await this.platform(flags.db);
    const result = await execute(listWebhookEndpoints, p, contextFor(p, flags.group), { limit: flags.limit, starting_after: flags['starting-after'] });
    this.log(result.data.items.length ? endpointTable(result.data.items) : 'No webhook endpoints (add one with payctl webhook create).');
    if (result.data.has_more) this.log(`more: --starting-after ${result.data.items.at(-1)!.id}`);
    return result;
  }
}
