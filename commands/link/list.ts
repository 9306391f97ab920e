import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listPaymentLinks } from '../../src/services/payment-links/payment-links.js';
import { LINK_STATUSES, type PaymentLinkList } from '../../src/domain/payment-links.js';
import { linkAmount } from '../../src/render/payment-links.js';
import { table, when } from '../../src/render/table.js';
import { statusWord } from '../../src/render/colour.js';
import { contextFor } from '../../src/services/context.js';

export default class LinkList extends PayctlCommand {
  static override description = 'List the payment links of a group, newest first';
  static override examples = [
    '<%= config.bin %> link list --group GROUP_ID',
    '<%= config.bin %> link list --group GROUP_ID --status available --json',
  ];
  static override flags = {
    group: groupFlag,
    status: Flags.string({ description: 'only links in this status', options: [...LINK_STATUSES] }),
    limit: Flags.integer({ description: 'at most this many (1-1000)', default: 50 }),
    offset: Flags.integer({ description: 'skip this many', default: 0 }),
  };

  async run(): Promise<PaymentLinkList> {
    const { flags } = await this.parse(LinkList);
    const result = await listPaymentLinks(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), {
      status: flags.status,
      limit: flags.limit,
      offset: flags.offset,
    });
    const items = result.data.items;
    this.log(table(['id', 'status', 'amount', 'description', 'created'], items.map((l) => [l.id, statusWord(l.status), linkAmount(l), l.description, when(l.created_at)])));
    this.log(`${items.length} of ${result.data.total_count} payment link${result.data.total_count === 1 ? '' : 's'}`);
    return result;
  }
}
