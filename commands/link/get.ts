import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getPaymentLink } from '../../src/services/payment-links/payment-links.js';
import type { PaymentLink } from '../../src/domain/payment-links.js';
import { linkDetails } from '../../src/render/payment-links.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class LinkGet extends PayctlCommand {
  static override description = 'Show a payment link';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['link:show'];
  static override examples = ['<%= config.bin %> link get LINK_ID --group GROUP_ID', '<%= config.bin %> link get LINK_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'payment link id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<PaymentLink> {
    const { args, flags } = await this.parse(LinkGet);
    const p = await this.platform(flags.db);
    const link = await execute(getPaymentLink, p, contextFor(p, flags.group), { payment_link_id: args.id });
    this.log(linkDetails(link));
    return link;
  }
}
