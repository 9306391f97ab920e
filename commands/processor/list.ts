import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listProcessors } from '../../src/services/groups/groups.js';
import type { ProcessorRow } from '../../src/store/repositories/groups.js';
import { table } from '../../src/render/table.js';

export default class ProcessorList extends PayctlCommand {
  static override description = "List a group's processors";
  static override examples = ['<%= config.bin %> processor list --group GROUP_ID'];
  static override flags = { group: groupFlag };

  async run(): Promise<ProcessorRow[]> {
    const { flags } = await this.parse(ProcessorList);
    const rows = await listProcessors(await this.platform(flags.db), flags.group);
    this.log(table(['id', 'name', 'type'], rows.map((r) => [r.id, r.name, r.type])));
    return rows;
  }
}
