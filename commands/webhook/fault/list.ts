import { Args } from '@oclif/core';
import { PayctlCommand } from '../../../src/cli/base.js';
import { groupFlag } from '../../../src/cli/flags/group.js';
import { contextFor } from '../../../src/services/context.js';
import { execute } from '../../../src/services/use-case.js';
import { listWebhookFaultRules } from '../../../src/services/faults/webhook-rules.js';
import type { WebhookFaultRule } from '../../../src/domain/faults.js';
import { webhookFaultRuleTable } from '../../../src/render/faults.js';

export default class WebhookFaultList extends PayctlCommand {
  static override description = "List a webhook endpoint's fault rules with their seeds and counters";
  static override examples = ['<%= config.bin %> webhook fault list ENDPOINT_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'endpoint id (from webhook list)', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<{ data: WebhookFaultRule[] }> {
    const { args, flags } = await this.parse(WebhookFaultList);
    const p = await this.platform(flags.db);
    const rules = await execute(listWebhookFaultRules, p, contextFor(p, flags.group), { group_id: flags.group, endpoint_id: args.id });
    this.log(webhookFaultRuleTable(rules.data));
    return rules;
  }
}
