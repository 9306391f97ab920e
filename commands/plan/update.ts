import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { editPlan, updatePlan } from '../../src/services/recurring/plans.js';
import type { Edit } from '../../src/services/edit.js';
import { planToUpdateBody, type Plan } from '../../src/domain/recurring.js';
import { describePlan } from '../../src/render/recurring.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { planBodyFromFlags, planFlags } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw, withParams } from '../../src/services/use-case.js';

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
    file: fileFlag,
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
    const ctx = contextFor(p, flags.group);
    const path = { linked_account_id: account, plan_id: args.id };
    const plan = flags.file
      ? await executeRaw(updatePlan, p, ctx, withParams(await this.readBodyFile(flags.file), path))
      : await execute(editPlan, p, ctx, { ...path, edit });
    this.log(`Updated plan ${plan.id}`);
    this.log(describePlan(plan));
    return plan;
  }
}
