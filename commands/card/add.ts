import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { addCard } from '../../src/services/transactions/add-card.js';
import type { CustomerCard } from '../../src/domain/customers.js';
import { addCardBodyFromFlags, addressFlagsAt } from '../../src/cli/flags/transaction-flags.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { linkedAccountFlag, linkedAccountOrDefault } from '../../src/cli/flags/scope.js';
import { cardSummary } from '../../src/render/transactions.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';

export default class CardAdd extends PayctlCommand {
  static override description = 'Add a card to an existing customer from a card token (Add Card of the API)';
  static override examples = [
    '<%= config.bin %> card add --group GROUP_ID --customer CUSTOMER_ID --token tok_mastercard --line1 "1 Main St" --city Springfield --state IL --zip 62701 --country US',
    '<%= config.bin %> card add --group GROUP_ID --customer CUSTOMER_ID --file card.json --json',
  ];
  static override bodySchema = addCard.input;
  static override flags = {
    group: groupFlag,
    'linked-account': linkedAccountFlag,
    customer: Flags.string({ description: 'customer id', required: true }),
    token: Flags.string({ description: 'card token (tok_visa … or one from `payctl token create`)', required: true }),
    ...requiredFlags(addressFlagsAt('billing_address'), ['line1', 'city', 'state', 'zip', 'country']),
    file: fileFlag,
  };

  async run(): Promise<CustomerCard> {
    const { flags } = await this.parse(CardAdd);
    const p = await this.platform(flags.db);
    const body = flags.file ? await this.readBodyFile(flags.file) : addCardBodyFromFlags(flags);
    const card = await executeRaw(addCard, p, contextFor(p, flags.group), withParams(body, { linked_account_id: await linkedAccountOrDefault(p, flags.group, flags['linked-account']), customer_id: flags.customer }));
    this.log(cardSummary(card));
    return card;
  }
}
