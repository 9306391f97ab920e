import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { listSubscriptions } from '../../src/services/recurring/subscriptions.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionList } from '../../src/domain/recurring.js';
import { subscriptionTable } from '../../src/render/recurring.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { defined } from '../../src/cli/flags/body.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';

export default class SubscriptionListCommand extends PayctlCommand {
  static override description = 'List the subscriptions of a linked account (newest first)';
  static override examples = [
    '<%= config.bin %> subscription list --group GROUP_ID',
    '<%= config.bin %> subscription list --group GROUP_ID --status failed --plan PLAN_ID',
  ];
  static override flags = {
    ...scopeFlags,
    status: Flags.string({ description: 'only this status', options: [...SUBSCRIPTION_STATUSES] }),
    plan: Flags.string({ description: 'only subscriptions of this plan' }),
    customer: Flags.string({ description: 'only subscriptions of this customer' }),
    ...pagingFlags,
  };

  async run(): Promise<SubscriptionList> {
    const { flags } = await this.parse(SubscriptionListCommand);
    const p = await this.platform(flags.db);
    const query = defined({ limit: flags.limit, offset: flags.offset, status: flags.status, plan_id: flags.plan, customer_id: flags.customer });
    const result = await executeRaw(listSubscriptions, p, contextFor(p, flags.group), withParams(query, { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']) }));
    const { items, total_count } = result.data;
    this.log(subscriptionTable(items));
    this.log(pageFooter({ shown: items.length, total: total_count, offset: flags.offset }));
    return result;
  }
}
