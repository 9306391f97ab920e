import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { createCustomer } from '../../src/services/customers/customers.js';
import type { Customer } from '../../src/domain/customers.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw } from '../../src/services/use-case.js';

export default class CustomerCreate extends PayctlCommand {
  static override description = 'Create a customer in a group';
  static override examples = [
    '<%= config.bin %> customer create --group GROUP_ID --first-name Ada --last-name Lovelace --email ada@example.com',
    '<%= config.bin %> customer create --group GROUP_ID --file customer.json',
  ];
  static override bodySchema = createCustomer.input;
  static override flags = {
    group: groupFlag,
    'first-name': Flags.string(),
    'last-name': Flags.string(),
    email: Flags.string(),
    phone: Flags.string(),
    file: fileFlag,
  };

  async run(): Promise<Customer> {
    const { flags } = await this.parse(CustomerCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : { first_name: flags['first-name'], last_name: flags['last-name'], email: flags.email, phone: flags.phone };
    const customer = await executeRaw(createCustomer, await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), body);
    this.log(`Created customer ${customer.id}`);
    return customer;
  }
}
