import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { setsField } from '../../src/cli/flags/fields.js';
import { createSubscription } from '../../src/services/recurring/subscriptions.js';
import type { Subscription } from '../../src/domain/recurring.js';
import { defined } from '../../src/cli/flags/body.js';
import { describeSubscription } from '../../src/render/recurring.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { linkedAccountOrDefault, scopeFlags } from '../../src/cli/flags/scope.js';
import { subscriptionAmountFlags, subscriptionAmountsFromFlags } from '../../src/cli/flags/recurring-flags.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';

export default class SubscriptionCreate extends PayctlCommand {
  static override description =
    'Subscribe a customer to a plan, paid by a stored card, a stored bank account or a token; what is due now (first cycle or trial charge) is charged at once';
  static override examples = [
    '<%= config.bin %> subscription create --group GROUP_ID --plan PLAN_ID --customer CUSTOMER_ID --card CARD_ID',
    '<%= config.bin %> subscription create --group GROUP_ID --plan PLAN_ID --customer CUSTOMER_ID --token tok_visa --start-date 2027-01-01',
    '<%= config.bin %> subscription create --group GROUP_ID --file subscription.json',
  ];
  static override bodySchema = createSubscription.input;
  static override flags = requiredFlags({
    ...scopeFlags,
    plan: Flags.string({ description: 'plan id' }),
    customer: Flags.string({ description: 'customer id' }),
    card: Flags.string({ description: 'stored card id of the customer' }),
    'bank-account': Flags.string({ description: 'stored bank account id of the customer (ACH: not retried)' }),
    token: setsField(Flags.string({ description: 'payment token (tok_visa, or one minted with `payctl token create`)' }), 'payment_details.token'),
    'start-date': Flags.string({ description: 'RFC 3339 time or YYYY-MM-DD [default: now]' }),
    processor: Flags.string({ description: 'processor id [default: the linked account\'s]' }),
    description: Flags.string({ description: 'shown to end-users [default: the plan\'s]' }),
    ...subscriptionAmountFlags,
    file: fileFlag,
  }, ['plan', 'customer']);

  async run(): Promise<Subscription> {
    const { flags } = await this.parse(SubscriptionCreate);
    const p = await this.platform(flags.db);
    let body: unknown;
    if (flags.file) {
      body = await this.readBodyFile(flags.file);
    } else {
      const amounts = subscriptionAmountsFromFlags(flags);
      body = defined({
        plan_id: flags.plan,
        customer_id: flags.customer,
        card_id: flags.card,
        bank_account_id: flags['bank-account'],
        payment_details: flags.token !== undefined ? { token: flags.token } : undefined,
        start_date: flags['start-date'],
        processor_id: flags.processor,
        description: flags.description,
        amounts: Object.keys(amounts).length ? amounts : undefined,
      });
    }
    const s = await executeRaw(createSubscription, p, contextFor(p, flags.group), withParams(body, { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']) }));
    this.log(`Created subscription ${s.id}`);
    this.log(describeSubscription(s));
    return s;
  }
}
