import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listLinkedAccounts } from '../../src/services/groups/groups.js';
import type { LinkedAccountRow } from '../../src/store/repositories/groups.js';
import { table } from '../../src/render/table.js';

export default class LinkedAccountList extends PayctlCommand {
  static override description = "List a group's linked accounts";
  static override examples = ['<%= config.bin %> linked-account list --group GROUP_ID'];
  static override flags = { group: groupFlag };

  async run(): Promise<LinkedAccountRow[]> {
    const { flags } = await this.parse(LinkedAccountList);
    const rows = await listLinkedAccounts(await this.platform(flags.db), flags.group);
    this.log(table(['id', 'name', 'processor'], rows.map((r) => [r.id, r.name, r.processor_id])));
    return rows;
  }
}
