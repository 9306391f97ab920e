import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getPlan } from '../../src/services/recurring/plans.js';
import type { Plan } from '../../src/domain/recurring.js';
import { describePlan } from '../../src/render/recurring.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class PlanGet extends PayctlCommand {
  static override description = 'Show a plan';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['plan:show'];
  static override examples = ['<%= config.bin %> plan get PLAN_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'plan id', required: true }) };
  static override flags = { ...scopeFlags };

  async run(): Promise<Plan> {
    const { args, flags } = await this.parse(PlanGet);
    const p = await this.platform(flags.db);
    const plan = await execute(getPlan, p, contextFor(p, flags.group), { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']), plan_id: args.id });
    this.log(describePlan(plan));
    return plan;
  }
}
