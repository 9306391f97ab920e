import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getCustomer } from '../../src/services/customers/customers.js';
import type { CustomerCard } from '../../src/domain/customers.js';
import { cardTable } from '../../src/render/customers.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class CardList extends PayctlCommand {
  static override description = "List a customer's stored cards (--json: the `cards` of `customer get --json`)";
  static override examples = ['<%= config.bin %> card list --customer CUSTOMER_ID', '<%= config.bin %> card list --customer CUSTOMER_ID --json'];
  static override flags = {
    group: groupFlag,
    customer: Flags.string({ description: 'customer id (`payctl customer list` shows them)', required: true }),
  };

  async run(): Promise<CustomerCard[]> {
    const { flags } = await this.parse(CardList);
    const p = await this.platform(flags.db);
    const { cards } = await execute(getCustomer, p, contextFor(p, flags.group), { customer_id: flags.customer });
    this.log(cards.length ? cardTable(cards) : 'No stored cards (add one with `payctl card add`).');
    return cards;
  }
}
