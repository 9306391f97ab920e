import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { archiveInvoice } from '../../src/services/catalog/invoices.js';
import type { Invoice } from '../../src/domain/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class InvoiceArchive extends PayctlCommand {
  static override description = 'Archive an invoice (it can no longer be updated or paid; archiving again is harmless)';
  static override examples = ['<%= config.bin %> invoice archive INVOICE_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'invoice id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Invoice> {
    const { args, flags } = await this.parse(InvoiceArchive);
    const p = await this.platform(flags.db);
    const invoice = await execute(archiveInvoice, p, contextFor(p, flags.group), { invoice_id: args.id });
    this.log(`Invoice ${invoice.invoice_number} is ${invoice.status}`);
    return invoice;
  }
}
