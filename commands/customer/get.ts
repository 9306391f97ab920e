import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getCustomer } from '../../src/services/customers/customers.js';
import type { Customer } from '../../src/domain/customers.js';
import { keyValues, table } from '../../src/render/table.js';
import { contextFor } from '../../src/services/context.js';

export default class CustomerGet extends PayctlCommand {
  static override description = 'Show a customer with stored cards and bank accounts';
  static override examples = ['<%= config.bin %> customer get CUSTOMER_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'customer id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Customer> {
    const { args, flags } = await this.parse(CustomerGet);
    const c = await getCustomer(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), args.id);
    this.log(keyValues([['id', c.id], ['name', `${c.first_name} ${c.last_name}`.trim()], ['email', c.email], ['phone', c.phone]]));
    if (c.cards.length) {
      this.log(table(['card id', 'brand', 'number', 'expires'], c.cards.map((k) => [k.card_id, k.brand, `${k.first_six}…${k.last_four}`, k.expiration])));
    }
    if (c.bank_accounts.length) {
      this.log(table(['bank account id', 'routing', 'account', 'type'], c.bank_accounts.map((b) => [b.bank_account_id, b.routing_number, `…${b.last_four}`, b.account_type])));
    }
    return c;
  }
}
