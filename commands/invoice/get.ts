import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getInvoice } from '../../src/services/catalog/invoices.js';
import { invoicePageUrl, type Invoice } from '../../src/domain/catalog.js';
import { invoiceDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class InvoiceGet extends PayctlCommand {
  static override description = 'Show an invoice with its lines and public page link (status as of the platform clock)';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['invoice:show'];
  static override examples = ['<%= config.bin %> invoice get INVOICE_ID --group GROUP_ID', '<%= config.bin %> invoice get INVOICE_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'invoice id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Invoice> {
    const { args, flags } = await this.parse(InvoiceGet);
    const p = await this.platform(flags.db);
    const invoice = await execute(getInvoice, p, contextFor(p, flags.group), { invoice_id: args.id });
    this.log(invoiceDetails(invoice, invoicePageUrl(p.publicUrl, invoice.slug)));
    return invoice;
  }
}
