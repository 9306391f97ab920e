import { PayctlCommand } from '../../src/cli/base.js';
import { listGroups } from '../../src/services/groups/groups.js';
import type { Group } from '../../src/domain/groups.js';
import { groupTable } from '../../src/render/platform.js';

export default class GroupList extends PayctlCommand {
  static override description = 'List merchant groups';
  static override examples = ['<%= config.bin %> group list', '<%= config.bin %> group list --json'];

  async run(): Promise<Group[]> {
    const { flags } = await this.parse(GroupList);
    const groups = await listGroups(await this.platform(flags.db));
    this.log(groupTable(groups));
    return groups;
  }
}
