import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../../src/cli/base.js';
import { groupFlag } from '../../../src/cli/flags/group.js';
import { contextFor } from '../../../src/services/context.js';
import { execute } from '../../../src/services/use-case.js';
import { removeWebhookFaultRule } from '../../../src/services/faults/webhook-rules.js';

export default class WebhookFaultRemove extends PayctlCommand {
  static override description = "Remove a webhook endpoint's fault rule";
  static override examples = ['<%= config.bin %> webhook fault remove FAULT_ID --endpoint ENDPOINT_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'fault rule id (from webhook fault list)', required: true }) };
  static override flags = { group: groupFlag, endpoint: Flags.string({ description: 'the endpoint the rule belongs to', required: true }) };

  async run(): Promise<{ id: string; deleted: true }> {
    const { args, flags } = await this.parse(WebhookFaultRemove);
    const p = await this.platform(flags.db);
    const removed = await execute(removeWebhookFaultRule, p, contextFor(p, flags.group), { group_id: flags.group, endpoint_id: flags.endpoint, fault_id: args.id });
    this.log(`Removed webhook fault rule ${removed.id}`);
    return removed;
  }
}
