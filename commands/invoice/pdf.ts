import { Args, Flags } from '@oclif/core';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PayctlCommand } from '../../src/cli/base.js';
import { usage } from '../../src/cli/usage.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { invoicePdf } from '../../src/services/catalog/invoices.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';
import { ttyProgress } from '../../src/cli/progress.js';

export interface InvoicePdfResult {
  file: string;
  bytes: number;
  invoice_id: string;
  invoice_number: string;
  status: string;
}

export default class InvoicePdf extends PayctlCommand {
  static override description = 'Save an invoice as PDF (default file: <invoice_number>.pdf)';
  static override examples = [
    '<%= config.bin %> invoice pdf INVOICE_ID --group GROUP_ID',
    '<%= config.bin %> invoice pdf INVOICE_ID --group GROUP_ID -o invoice.pdf',
  ];
  static override args = { id: Args.string({ description: 'invoice id', required: true }) };
  static override flags = {
    group: groupFlag,
    output: Flags.string({ char: 'o', description: 'file to write (- for stdout)' }),
  };

  async run(): Promise<InvoicePdfResult> {
    const { args, flags } = await this.parse(InvoicePdf);
    if (flags.output === '-' && this.jsonEnabled()) throw usage('-o - writes the PDF to stdout; it cannot be combined with --json');
    const p = await this.platform(flags.db);
    // Only an invoice of many lines takes long enough for a bar.
    const progress = ttyProgress({ json: this.jsonEnabled(), minTotal: 50 });
    const { filename, pdf, invoice } = await execute(invoicePdf, p, contextFor(p, flags.group), { invoice_id: args.id, progress });
    const result = { bytes: pdf.length, invoice_id: invoice.id, invoice_number: invoice.invoice_number, status: invoice.status };
    if (flags.output === '-') {
      process.stdout.write(pdf);
      return { file: '-', ...result };
    }
    const file = path.resolve(flags.output ?? filename);
    await writeFile(file, pdf);
    this.log(`Wrote ${file} (${pdf.length} bytes, ${invoice.invoice_number}, ${invoice.status})`);
    return { file, ...result };
  }
}
