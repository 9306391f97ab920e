import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { cancelSubscription } from '../../src/services/recurring/subscriptions.js';
import type { Subscription } from '../../src/domain/recurring.js';
import { describeSubscription } from '../../src/render/recurring.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class SubscriptionCancel extends PayctlCommand {
  static override description = 'Cancel a subscription (status canceled: nothing is billed any more)';
  static override examples = ['<%= config.bin %> subscription cancel SUB_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'subscription id', required: true }) };
  static override flags = { ...scopeFlags };

  async run(): Promise<Subscription> {
    const { args, flags } = await this.parse(SubscriptionCancel);
    const p = await this.platform(flags.db);
    const s = await execute(cancelSubscription, p, contextFor(p, flags.group), { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']), subscription_id: args.id });
    this.log(`Canceled subscription ${s.id}`);
    this.log(describeSubscription(s));
    return s;
  }
}
