import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getSubscription } from '../../src/services/recurring/subscriptions.js';
import type { Subscription } from '../../src/domain/recurring.js';
import { describeSubscription } from '../../src/render/recurring.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class SubscriptionGet extends PayctlCommand {
  static override description = 'Show a subscription: status, next bill date, charges, retries';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['subscription:show'];
  static override examples = ['<%= config.bin %> subscription get SUB_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'subscription id', required: true }) };
  static override flags = { ...scopeFlags };

  async run(): Promise<Subscription> {
    const { args, flags } = await this.parse(SubscriptionGet);
    const p = await this.platform(flags.db);
    const s = await execute(getSubscription, p, contextFor(p, flags.group), { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']), subscription_id: args.id });
    this.log(describeSubscription(s));
    return s;
  }
}
