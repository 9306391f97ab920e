import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag, pagingFlags } from '../../src/cli/flags/catalog-flags.js';
import { listInvoices } from '../../src/services/catalog/invoices.js';
import { INVOICE_STATUSES, type InvoiceList } from '../../src/domain/catalog.js';
import { invoiceTable } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';

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
    const result = await listInvoices(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), {
      limit: flags.limit,
      offset: flags.offset,
      ...(flags.status !== undefined ? { status: flags.status } : {}),
      ...(flags.partner !== undefined ? { partner_id: flags.partner } : {}),
    });
    this.log(invoiceTable(result.data.items));
    this.log(`${result.data.items.length} shown of ${result.data.total_count} (offset ${flags.offset})`);
    return result;
  }
}
