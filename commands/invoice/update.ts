import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { idQuantity } from '../../src/cli/flags/body.js';
import type { Edit } from '../../src/services/edit.js';
import { editInvoice, updateInvoice } from '../../src/services/catalog/invoices.js';
import { getProduct } from '../../src/services/catalog/products.js';
import { dueDayOf, invoicePageUrl, type Invoice, type UpdateInvoiceLineInput } from '../../src/domain/catalog.js';
import { AppError } from '../../src/errors.js';
import { invoiceDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw, withParams } from '../../src/services/use-case.js';

export default class InvoiceUpdate extends PayctlCommand {
  static override description =
    'Update an invoice: flags change those fields and keep the rest (lines are kept unless removed); --file sends the full Update Invoice body';
  static override examples = [
    '<%= config.bin %> invoice update INVOICE_ID --group GROUP_ID --due-date 2027-02-28 --note "Net 30"',
    '<%= config.bin %> invoice update INVOICE_ID --group GROUP_ID --add-product PRODUCT_ID:3 --remove-line LINE_ID --quantity OTHER_LINE_ID:5',
    '<%= config.bin %> invoice update INVOICE_ID --group GROUP_ID --file update.json',
  ];
  static override args = { id: Args.string({ description: 'invoice id', required: true }) };
  static override flags = {
    group: groupFlag,
    'due-date': Flags.string({ description: 'due day YYYY-MM-DD' }),
    note: Flags.string({ description: 'note shown to the partner' }),
    'external-id': Flags.string({ description: 'your own reference' }),
    processor: Flags.string({ description: 'processor id that takes the payment' }),
    card: Flags.boolean({ description: 'offer card payment on the invoice page', allowNo: true }),
    ach: Flags.boolean({ description: 'offer ACH payment on the invoice page', allowNo: true }),
    'add-product': Flags.string({ description: 'attach a new line: PRODUCT_ID or PRODUCT_ID:QUANTITY (repeatable)', multiple: true }),
    'remove-line': Flags.string({ description: 'detach the line with this id (repeatable)', multiple: true }),
    quantity: Flags.string({ description: 'change a kept line: LINE_ID:QUANTITY (repeatable)', multiple: true }),
    file: fileFlag,
  };

  async run(): Promise<Invoice> {
    const { args, flags } = await this.parse(InvoiceUpdate);
    const p = await this.platform(flags.db);
    const ctx = contextFor(p, flags.group);
    // The line flags are read before anything runs: a malformed one is a usage error.
    const remove = new Set(flags['remove-line'] ?? []);
    const quantities = new Map((flags.quantity ?? []).map((t) => idQuantity('quantity', t)).map((x) => [x.id, x.quantity]));
    const additions = (flags['add-product'] ?? []).map((t) => idQuantity('add-product', t));
    // The API replaces the invoice (spec 9): the flags edit the current one, read in the
    // update's own transaction.
    const edit: Edit<Invoice> = async (current) => {
      for (const id of [...remove, ...quantities.keys()]) {
        if (!current.products.some((l) => l.id === id)) throw new AppError(400, 'validation_error', `${id} is not a line of invoice ${current.invoice_number}`);
      }
      const lines: UpdateInvoiceLineInput[] = current.products
        .filter((l) => !remove.has(l.id))
        .map((l) => ({
          id: l.id,
          product_id: l.product_id,
          name: l.name,
          description: l.description,
          amount: l.amount,
          included_tax_amount: l.included_tax_amount,
          unit_of_measure: 'pc' as const,
          quantity: quantities.get(l.id) ?? l.quantity,
        }));
      for (const { id, quantity } of additions) {
        const product = await execute(getProduct, p, ctx, { product_id: id });
        lines.push({
          product_id: product.id,
          name: product.name,
          description: product.description,
          amount: product.amount,
          included_tax_amount: product.included_tax_amount,
          unit_of_measure: 'pc',
          quantity,
        });
      }
      return {
        note: flags.note ?? current.note,
        external_id: flags['external-id'] ?? current.external_id,
        due_date: flags['due-date'] ?? dueDayOf(current.due_date),
        processor_id: flags.processor ?? current.processor_id,
        card_enabled: flags.card ?? current.card_enabled,
        ach_enabled: flags.ach ?? current.ach_enabled,
        products: lines,
      };
    };
    const invoice = flags.file
      ? await executeRaw(updateInvoice, p, ctx, withParams(await this.readBodyFile(flags.file), { invoice_id: args.id }))
      : await execute(editInvoice, p, ctx, { invoice_id: args.id, edit });
    this.log(invoiceDetails(invoice, invoicePageUrl(p.publicUrl, invoice.slug)));
    return invoice;
  }
}
