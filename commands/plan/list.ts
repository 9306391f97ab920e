import { PayctlCommand } from '../../src/cli/base.js';
import { listPlans } from '../../src/services/recurring/plans.js';
import type { PlanList } from '../../src/domain/recurring.js';
import { formatMoney } from '../../src/domain/money.js';
import { table } from '../../src/render/table.js';
import { linkedAccountOrDefault, pagingFlags, scopeFlags } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';

export default class PlanListCommand extends PayctlCommand {
  static override description = 'List the plans of a linked account (newest first)';
  static override examples = ['<%= config.bin %> plan list --group GROUP_ID', '<%= config.bin %> plan list --group GROUP_ID --limit 10 --offset 10'];
  static override flags = { ...scopeFlags, ...pagingFlags };

  async run(): Promise<PlanList> {
    const { flags } = await this.parse(PlanListCommand);
    const p = await this.platform(flags.db);
    const result = await listPlans(p, contextFor(p, flags.group), await linkedAccountOrDefault(p, flags.group, flags['linked-account']), {
      limit: flags.limit,
      offset: flags.offset,
    });
    const { items, total_count } = result.data;
    this.log(
      table(
        ['id', 'name', 'amount', 'cycle', 'duration', 'trial days', 'retries'],
        items.map((x) => [
          x.id,
          x.name,
          formatMoney(x.amount),
          x.billing_factor > 1 ? `${x.billing_cycle} ×${x.billing_factor}` : x.billing_cycle,
          x.duration === 0 ? 'endless' : x.duration,
          x.trial_period_days ?? '',
          x.max_retry_count,
        ]),
      ),
    );
    this.log(`${items.length} shown of ${total_count} (offset ${flags.offset})`);
    return result;
  }
}
