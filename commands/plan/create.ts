import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { createPlan } from '../../src/services/recurring/plans.js';
import type { Plan } from '../../src/domain/recurring.js';
import { describePlan } from '../../src/render/recurring.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { planBodyFromFlags, planFlags, retryPolicyFrom } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';

export default class PlanCreate extends PayctlCommand {
  static override description = 'Create a recurring billing plan (Create Plan of the API)';
  static override examples = [
    '<%= config.bin %> plan create --group GROUP_ID --name Gold --amount 19.99 --billing-cycle monthly --duration 12',
    '<%= config.bin %> plan create --group GROUP_ID --name Daily --amount-cents 500 --billing-cycle daily --billing-factor 7 --duration 0 --max-retry-count 3 --retry-delays 1,3,5',
    '<%= config.bin %> plan create --group GROUP_ID --linked-account ACCOUNT_ID --file plan.json',
  ];
  static override bodySchema = createPlan.input;
  static override flags = requiredFlags({
    ...scopeFlags,
    ...planFlags,
    'retry-delays': Flags.string({ description: 'retry_policy: days before each retry, comma separated (one per retry), e.g. 1,3,5' }),
    file: fileFlag,
  }, ['name', 'amount', 'amount-cents', 'billing-cycle', 'duration']);

  async run(): Promise<Plan> {
    const { flags } = await this.parse(PlanCreate);
    const p = await this.platform(flags.db);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : { ...planBodyFromFlags(flags), ...(flags['retry-delays'] !== undefined ? { retry_policy: retryPolicyFrom(flags['retry-delays']) } : {}) };
    const plan = await executeRaw(createPlan, p, contextFor(p, flags.group), withParams(body, { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']) }));
    this.log(`Created plan ${plan.id}`);
    this.log(describePlan(plan));
    return plan;
  }
}
