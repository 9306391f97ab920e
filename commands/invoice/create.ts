import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { setsField } from '../../src/cli/flags/fields.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { defined, idQuantity } from '../../src/cli/flags/body.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createInvoice } from '../../src/services/catalog/invoices.js';
import { invoicePageUrl, type Invoice } from '../../src/domain/catalog.js';
import { invoiceDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class InvoiceCreate extends PayctlCommand {
  static override description = 'Create an invoice for a partner from products (numbered INV-<year>-<n>)';
  static override examples = [
    '<%= config.bin %> invoice create --group GROUP_ID --partner PARTNER_ID --processor PROCESSOR_ID --due-date 2027-01-31 --product PRODUCT_ID:2 --product OTHER_ID',
    '<%= config.bin %> invoice create --group GROUP_ID --partner PARTNER_ID --processor PROCESSOR_ID --due-date 2027-01-31 --product PRODUCT_ID --no-ach --send-email',
    '<%= config.bin %> invoice create --group GROUP_ID --file invoice.json',
  ];
  static override bodySchema = createInvoice.input;
  static override flags = requiredFlags({
    group: groupFlag,
    partner: Flags.string({ description: 'partner id (who is billed)' }),
    processor: Flags.string({ description: 'processor id that takes the payment' }),
    'due-date': Flags.string({ description: 'due day YYYY-MM-DD (past due from the next day, UTC)' }),
    product: setsField(Flags.string({ description: 'a line: PRODUCT_ID or PRODUCT_ID:QUANTITY (repeatable)', multiple: true }), 'products'),
    note: Flags.string({ description: 'note shown to the partner' }),
    'external-id': Flags.string({ description: 'your own reference' }),
    card: setsField(Flags.boolean({ description: 'offer card payment on the invoice page', allowNo: true, default: true }), 'card_enabled'),
    ach: setsField(Flags.boolean({ description: 'offer ACH payment on the invoice page', allowNo: true, default: true }), 'ach_enabled'),
    'send-email': Flags.boolean({ description: 'e-mail the invoice with its page link to the partner' }),
    file: fileFlag,
  }, ['partner', 'processor', 'due-date', 'product']);

  async run(): Promise<Invoice> {
    const { flags } = await this.parse(InvoiceCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : defined({
          partner_id: flags.partner,
          processor_id: flags.processor,
          due_date: flags['due-date'],
          note: flags.note,
          external_id: flags['external-id'],
          card_enabled: flags.card,
          ach_enabled: flags.ach,
          send_email: flags['send-email'],
          products: (flags.product ?? []).map((t) => {
            const { id, quantity } = idQuantity('product', t);
            return { product_id: id, quantity };
          }),
        });
    const p = await this.platform(flags.db);
    const invoice = await executeRaw(createInvoice, p, contextFor(p, flags.group), body);
    this.log(invoiceDetails(invoice, invoicePageUrl(p.publicUrl, invoice.slug)));
    return invoice;
  }
}
