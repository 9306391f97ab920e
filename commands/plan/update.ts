import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { planToUpdateBody, updatePlan } from '../../src/services/recurring/plans.js';
import type { Edit } from '../../src/services/edit.js';
import type { Plan } from '../../src/domain/recurring.js';
import { describePlan, fileFlag, linkedAccountOrDefault, planBodyFromFlags, planFlags, scopeFlags } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';

export default class PlanUpdate extends PayctlCommand {
  static override description =
    'Update a plan (Update plan of the API). Without --file the flags change the current values; --update-subscriptions applies them to active subscriptions, --prorate charges the prorated difference now';
  static override examples = [
    '<%= config.bin %> plan update PLAN_ID --group GROUP_ID --amount 24.99 --update-subscriptions --prorate',
    '<%= config.bin %> plan update PLAN_ID --group GROUP_ID --description "Gold, now with more" ',
    '<%= config.bin %> plan update PLAN_ID --group GROUP_ID --file plan-update.json',
  ];
  static override args = { id: Args.string({ description: 'plan id', required: true }) };
  static override flags = {
    ...scopeFlags,
    ...planFlags,
    'update-subscriptions': Flags.boolean({ description: 'give active subscriptions of the plan the new values', default: false }),
    prorate: Flags.boolean({ description: 'with --update-subscriptions: take effect now and charge the prorated difference', default: false }),
    ...fileFlag,
  };

  async run(): Promise<Plan> {
    const { args, flags } = await this.parse(PlanUpdate);
    const p = await this.platform(flags.db);
    const account = await linkedAccountOrDefault(p, flags.group, flags['linked-account']);
    // The flags edit the current plan, read in the update's own transaction.
    const edit: Edit<Plan> = (current) => ({
      ...planToUpdateBody(current),
      ...planBodyFromFlags(flags),
      update_subscriptions: flags['update-subscriptions'],
      prorate: flags.prorate,
    });
    const body = flags.file ? await this.readBodyFile(flags.file) : edit;
    const plan = await updatePlan(p, contextFor(p, flags.group), account, args.id, body);
    this.log(`Updated plan ${plan.id}`);
    this.log(describePlan(plan));
    return plan;
  }
}
