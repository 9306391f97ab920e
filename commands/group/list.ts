import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { listGroups } from '../../src/services/groups/groups.js';
import type { Group } from '../../src/domain/groups.js';
import { groupTable } from '../../src/render/platform.js';

export default class GroupList extends PayctlCommand {
  static override description = 'List merchant groups';
  static override examples = ['<%= config.bin %> group list', '<%= config.bin %> group list --json'];

  async run(): Promise<Group[]> {
    const { flags } = await this.parse(GroupList);
    const p = await this.platform(flags.db);
    const groups = await execute(listGroups, p, contextFor(p, undefined), {});
    // An empty list most often means another database than the user meant: name the file.
    if (groups.length === 0) process.stderr.write(`No groups in the database ${p.db.location}: \`payctl init --demo\` adds a demo group, \`payctl config list\` shows which database this folder uses.\n`);
    else this.log(groupTable(groups));
    return groups;
  }
}
