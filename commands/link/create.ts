import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { setsField } from '../../src/cli/flags/fields.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createPaymentLink } from '../../src/services/payment-links/payment-links.js';
import type { PaymentLink } from '../../src/domain/payment-links.js';
import { amountFrom, moneyFlags } from '../../src/cli/flags/money.js';
import { linkDetails } from '../../src/render/payment-links.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw } from '../../src/services/use-case.js';

export default class LinkCreate extends PayctlCommand {
  static override description = 'Create a payment link (a page where an end-user pays once)';
  static override examples = [
    '<%= config.bin %> link create --group GROUP_ID --amount 25.00 --description "Concert ticket" --redirect-url https://example.com/thanks',
    '<%= config.bin %> link create --group GROUP_ID --open-amount --description Donation --json',
    '<%= config.bin %> link create --group GROUP_ID --file link.json',
  ];
  static override bodySchema = createPaymentLink.input;
  static override flags = requiredFlags({
    group: groupFlag,
    ...moneyFlags('amount', 'amount', { exclusive: ['open-amount', 'file'] }),
    'open-amount': Flags.boolean({ description: 'the payer names the amount', exclusive: ['amount', 'amount-cents', 'file'] }),
    description: Flags.string({ description: 'what is being paid for (at most 255 characters)' }),
    'redirect-url': Flags.string({ description: 'where the payer goes after paying (default: the pay page, showing "paid")' }),
    processor: Flags.string({ description: 'processor id (default: the group\'s first processor)' }),
    ach: setsField(Flags.boolean({ description: 'also accept bank accounts (ACH)' }), 'ach_enabled'),
    card: setsField(Flags.boolean({ description: 'accept cards', default: true, allowNo: true }), 'card_enabled'),
    'expires-at': Flags.string({ description: 'RFC 3339 platform time after which the link cannot be paid' }),
    file: fileFlag,
  }, ['description']);

  async run(): Promise<PaymentLink> {
    const { flags } = await this.parse(LinkCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : {
          amount: amountFrom(flags, 'amount'),
          open_amount: flags['open-amount'] || undefined,
          description: flags.description,
          redirect_url: flags['redirect-url'],
          processor_id: flags.processor,
          card_enabled: flags.card,
          ach_enabled: flags.ach,
          expires_at: flags['expires-at'],
        };
    const p = await this.platform(flags.db);
    const link = await executeRaw(createPaymentLink, p, contextFor(p, flags.group), body);
    this.log(`Created payment link ${link.id}`);
    this.log(linkDetails(link));
    return link;
  }
}
