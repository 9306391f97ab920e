import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listLinkedAccounts } from '../../src/services/groups/groups.js';
import type { LinkedAccount } from '../../src/domain/groups.js';
import { linkedAccountTable } from '../../src/render/platform.js';

export default class LinkedAccountList extends PayctlCommand {
  static override description = "List a group's linked accounts";
  static override examples = ['<%= config.bin %> linked-account list --group GROUP_ID'];
  static override flags = { group: groupFlag };

  async run(): Promise<LinkedAccount[]> {
    const { flags } = await this.parse(LinkedAccountList);
    const p = await this.platform(flags.db);
    const accounts = await execute(listLinkedAccounts, p, contextFor(p, flags.group), {});
    this.log(linkedAccountTable(accounts));
    return accounts;
  }
}
