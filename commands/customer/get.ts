import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getCustomer } from '../../src/services/customers/customers.js';
import type { Customer } from '../../src/domain/customers.js';
import { customerDetails } from '../../src/render/customers.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class CustomerGet extends PayctlCommand {
  static override description = 'Show a customer with stored cards and bank accounts';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['customer:show'];
  static override examples = ['<%= config.bin %> customer get CUSTOMER_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'customer id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Customer> {
    const { args, flags } = await this.parse(CustomerGet);
    const c = await execute(getCustomer, await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), { customer_id: args.id });
    this.log(customerDetails(c));
    return c;
  }
}
