import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { createGroup, listGroups } from '../../src/services/groups/groups.js';
import { makeDefaultGroupIfNone } from '../../src/cli/default-group.js';
import type { Group } from '../../src/domain/groups.js';
import type { Pricing } from '../../src/domain/permissions.js';

export default class GroupCreate extends PayctlCommand {
  static override description = 'Create a merchant group';
  static override examples = ['<%= config.bin %> group create --name "Corner Shop" --pricing flat'];
  static override flags = {
    name: Flags.string({ description: 'merchant name', required: true }),
    pricing: Flags.string({ description: 'pricing model', options: ['flat', 'interchange_plus'], default: 'flat' }),
  };

  async run(): Promise<Group> {
    const { flags } = await this.parse(GroupCreate);
    const p = await this.platform(flags.db);
    const first = (await execute(listGroups, p, contextFor(p, undefined), {})).length === 0;
    const group = await execute(createGroup, p, contextFor(p, undefined), { name: flags.name, pricing: flags.pricing as Pricing });
    this.log(`Created group ${group.id} (${group.name}, ${group.pricing} pricing)`);
    // The first group becomes the default, as `init --demo`'s does.
    const defaultLine = first ? await makeDefaultGroupIfNone(p, group.id) : undefined;
    if (defaultLine) this.log(defaultLine);
    return group;
  }
}
