import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getPaymentLink } from '../../src/services/payment-links/payment-links.js';
import type { PaymentLink } from '../../src/domain/payment-links.js';
import { linkDetails } from '../../src/render/payment-links.js';
import { contextFor } from '../../src/services/context.js';

export default class LinkGet extends PayctlCommand {
  static override description = 'Show a payment link';
  static override examples = ['<%= config.bin %> link get LINK_ID --group GROUP_ID', '<%= config.bin %> link get LINK_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'payment link id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<PaymentLink> {
    const { args, flags } = await this.parse(LinkGet);
    const link = await getPaymentLink(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), args.id);
    this.log(linkDetails(link));
    return link;
  }
}
