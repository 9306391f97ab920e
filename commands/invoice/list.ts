import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { listInvoices } from '../../src/services/catalog/invoices.js';
import { INVOICE_STATUSES, type InvoiceList } from '../../src/domain/catalog.js';
import { invoiceTable } from '../../src/render/catalog.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class InvoiceListCommand extends PayctlCommand {
  static override description = 'List invoices, newest first (status as of the platform clock)';
  static override examples = [
    '<%= config.bin %> invoice list --group GROUP_ID',
    '<%= config.bin %> invoice list --group GROUP_ID --status past_due',
  ];
  static override flags = {
    group: groupFlag,
    status: Flags.string({ description: 'only invoices with this status', options: [...INVOICE_STATUSES] }),
    partner: Flags.string({ description: 'only invoices of this partner id' }),
    ...pagingFlags,
  };

  async run(): Promise<InvoiceList> {
    const { flags } = await this.parse(InvoiceListCommand);
    const p = await this.platform(flags.db);
    const result = await executeRaw(listInvoices, p, contextFor(p, flags.group), {
      limit: flags.limit,
      offset: flags.offset,
      ...(flags.status !== undefined ? { status: flags.status } : {}),
      ...(flags.partner !== undefined ? { partner_id: flags.partner } : {}),
    });
    this.log(invoiceTable(result.data.items));
    this.log(pageFooter({ shown: result.data.items.length, total: result.data.total_count, offset: flags.offset }));
    return result;
  }
}
