import { PayctlCommand } from '../../src/cli/base.js';
import { listPlans } from '../../src/services/recurring/plans.js';
import type { PlanList } from '../../src/domain/recurring.js';
import { planTable } from '../../src/render/recurring.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class PlanListCommand extends PayctlCommand {
  static override description = 'List the plans of a linked account (newest first)';
  static override examples = ['<%= config.bin %> plan list --group GROUP_ID', '<%= config.bin %> plan list --group GROUP_ID --limit 10 --offset 10'];
  static override flags = { ...scopeFlags, ...pagingFlags };

  async run(): Promise<PlanList> {
    const { flags } = await this.parse(PlanListCommand);
    const p = await this.platform(flags.db);
    const result = await execute(listPlans, p, contextFor(p, flags.group), {
      linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']),
      limit: flags.limit,
      offset: flags.offset,
    });
    const { items, total_count } = result.data;
    this.log(planTable(items));
    this.log(pageFooter({ shown: items.length, total: total_count, offset: flags.offset }));
    return result;
  }
}
