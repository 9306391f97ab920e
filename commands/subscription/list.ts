import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { listSubscriptions } from '../../src/services/recurring/subscriptions.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionList } from '../../src/domain/recurring.js';
import { formatMoney } from '../../src/domain/money.js';
import { table, when } from '../../src/render/table.js';
import { statusWord } from '../../src/render/colour.js';
import { defined, linkedAccountOrDefault, pagingFlags, scopeFlags } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';

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
    const result = await listSubscriptions(p, contextFor(p, flags.group), await linkedAccountOrDefault(p, flags.group, flags['linked-account']), query);
    const { items, total_count } = result.data;
    this.log(
      table(
        ['id', 'plan', 'status', 'amount', 'cycle', 'next bill date', 'charges', 'failed attempts'],
        items.map((x) => [
          x.id,
          x.plan_id,
          statusWord(x.status),
          formatMoney(x.amounts.amount),
          x.billing_factor > 1 ? `${x.billing_cycle} ×${x.billing_factor}` : x.billing_cycle,
          x.next_bill_date ? when(x.next_bill_date) : '—',
          x.metadata.charge_count,
          x.metadata.failure_attempt_count,
        ]),
      ),
    );
    this.log(`${items.length} shown of ${total_count} (offset ${flags.offset})`);
    return result;
  }
}
