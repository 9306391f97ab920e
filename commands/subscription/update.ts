import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import type { Edit } from '../../src/services/edit.js';
import { editSubscription, updateSubscription } from '../../src/services/recurring/subscriptions.js';
import { subscriptionToUpdateBody, type Subscription } from '../../src/domain/recurring.js';
import { SUBSCRIPTION_UPDATE_CYCLES } from '../../src/domain/recurring.js';
import { defined } from '../../src/cli/flags/body.js';
import { describeSubscription } from '../../src/render/recurring.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { prorationFlag, subscriptionAmountFlags, subscriptionAmountsFromFlags } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw, withParams } from '../../src/services/use-case.js';

export default class SubscriptionUpdate extends PayctlCommand {
  static override description =
    'Update a subscription (Update subscription of the API). Without --file the flags change the current values; an amount change is prorated (--proration-behavior overrides the plan\'s for this update)';
  static override examples = [
    '<%= config.bin %> subscription update SUB_ID --group GROUP_ID --amount 29.99 --proration-behavior immediate_action',
    '<%= config.bin %> subscription update SUB_ID --group GROUP_ID --token tok_mastercard',
    '<%= config.bin %> subscription update SUB_ID --group GROUP_ID --file subscription-update.json',
  ];
  static override args = { id: Args.string({ description: 'subscription id', required: true }) };
  static override flags = {
    ...scopeFlags,
    plan: Flags.string({ description: 'move to this plan' }),
    processor: Flags.string({ description: 'processor id' }),
    ...subscriptionAmountFlags,
    'billing-cycle': Flags.string({ description: 'billing cycle', options: [...SUBSCRIPTION_UPDATE_CYCLES] }),
    'billing-factor': Flags.integer({ description: 'daily only: the interval in days' }),
    duration: Flags.integer({ description: 'number of cycles; 0 = endless' }),
    'max-retry-count': Flags.integer({ description: 'retries of a failed card charge (0 to 5)' }),
    description: Flags.string({ description: 'shown to end-users' }),
    'proration-behavior': prorationFlag,
    token: Flags.string({ description: 'new payment token' }),
    file: fileFlag,
  };

  async run(): Promise<Subscription> {
    const { args, flags } = await this.parse(SubscriptionUpdate);
    const p = await this.platform(flags.db);
    const account = await linkedAccountOrDefault(p, flags.group, flags['linked-account']);
    // The flags edit the current subscription, read in the update's own transaction.
    const edit: Edit<Subscription> = (subscription) => {
      const current = subscriptionToUpdateBody(subscription);
      return {
        ...current,
        ...defined({
          plan_id: flags.plan,
          processor_id: flags.processor,
          billing_cycle: flags['billing-cycle'],
          billing_factor: flags['billing-factor'],
          duration: flags.duration,
          max_retry_count: flags['max-retry-count'],
          description: flags.description,
          proration_behavior: flags['proration-behavior'],
          payment_details: flags.token !== undefined ? { token: flags.token } : undefined,
        }),
        amounts: { ...(current.amounts as object), ...subscriptionAmountsFromFlags(flags) },
      };
    };
    const ctx = contextFor(p, flags.group);
    const path = { linked_account_id: account, subscription_id: args.id };
    const s = flags.file
      ? await executeRaw(updateSubscription, p, ctx, withParams(await this.readBodyFile(flags.file), path))
      : await execute(editSubscription, p, ctx, { ...path, edit });
    this.log(`Updated subscription ${s.id}`);
    this.log(describeSubscription(s));
    return s;
  }
}
