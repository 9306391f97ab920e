import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { listCustomers } from '../../src/services/customers/customers.js';
import type { Customer } from '../../src/domain/customers.js';
import { customerTable } from '../../src/render/customers.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class CustomerList extends PayctlCommand {
  static override description = 'List customers, newest first, a page at a time (--json: each customer as `customer get --json` prints it)';
  static override examples = ['<%= config.bin %> customer list', '<%= config.bin %> customer list --limit 20 --offset 20', '<%= config.bin %> customer list --json'];
  static override flags = { group: groupFlag, ...pagingFlags };

  async run(): Promise<Customer[]> {
    const { flags } = await this.parse(CustomerList);
    const p = await this.platform(flags.db);
    const items = await execute(listCustomers, p, contextFor(p, flags.group), { limit: flags.limit, offset: flags.offset });
    this.log(items.length ? customerTable(items) : 'No customers.');
    this.log(pageFooter({ shown: items.length, offset: flags.offset, limit: flags.limit }));
    return items;
  }
}
