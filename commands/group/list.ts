import { PayctlCommand } from '../../src/cli/base.js';
import { listGroups } from '../../src/services/groups/groups.js';
import type { GroupRow } from '../../src/store/repositories/groups.js';
import { table, when } from '../../src/render/table.js';

export default class GroupList extends PayctlCommand {
  static override description = 'List merchant groups';
  static override examples = ['<%= config.bin %> group list', '<%= config.bin %> group list --json'];

  async run(): Promise<GroupRow[]> {
    const { flags } = await this.parse(GroupList);
    const groups = await listGroups(await this.platform(flags.db));
    this.log(table(['id', 'name', 'pricing', 'status', 'created'], groups.map((g) => [g.id, g.name, g.pricing, g.status, when(g.created_at)])));
    return groups;
  }
}
