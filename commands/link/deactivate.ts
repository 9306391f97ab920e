import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { deactivatePaymentLink } from '../../src/services/payment-links/payment-links.js';
import type { PaymentLink } from '../../src/domain/payment-links.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class LinkDeactivate extends PayctlCommand {
  static override description = 'Deactivate a payment link so it can no longer be paid (a paid link cannot be deactivated)';
  static override examples = ['<%= config.bin %> link deactivate LINK_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'payment link id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<PaymentLink> {
    const { args, flags } = await this.parse(LinkDeactivate);
    const p = await this.platform(flags.db);
    const link = await execute(deactivatePaymentLink, p, contextFor(p, flags.group), { payment_link_id: args.id });
    this.log(`Payment link ${link.id} is ${link.status}`);
    return link;
  }
}
