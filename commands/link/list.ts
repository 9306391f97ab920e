import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listPaymentLinks } from '../../src/services/payment-links/payment-links.js';
import { LINK_STATUSES, type PaymentLinkList } from '../../src/domain/payment-links.js';
import { linkTable } from '../../src/render/payment-links.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw } from '../../src/services/use-case.js';

export default class LinkList extends PayctlCommand {
  static override description = 'List the payment links of a group, newest first';
  static override examples = [
    '<%= config.bin %> link list --group GROUP_ID',
    '<%= config.bin %> link list --group GROUP_ID --status available --json',
  ];
  static override flags = {
    group: groupFlag,
    status: Flags.string({ description: 'only links in this status', options: [...LINK_STATUSES] }),
    ...pagingFlags,
  };

  async run(): Promise<PaymentLinkList> {
    const { flags } = await this.parse(LinkList);
    const p = await this.platform(flags.db);
    const result = await executeRaw(listPaymentLinks, p, contextFor(p, flags.group), {
      status: flags.status,
      limit: flags.limit,
      offset: flags.offset,
    });
    const items = result.data.items;
    this.log(linkTable(items));
    this.log(pageFooter({ shown: items.length, total: result.data.total_count, offset: flags.offset }));
    return result;
  }
}
