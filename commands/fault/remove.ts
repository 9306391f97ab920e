import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { removeFaultRule } from '../../src/services/faults/rules.js';

export default class FaultRemove extends PayctlCommand {
  static override description = "Remove a fault rule (the group's calls stop getting its fault at once, also on a running server)";
  static override examples = ['<%= config.bin %> fault remove FAULT_ID --group GROUP_ID'];
  static override args = { id: Args.string({ description: 'fault rule id (from fault list)', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<{ id: string; deleted: true }> {
    const { args, flags } = await this.parse(FaultRemove);
    const p = await this.platform(flags.db);
    const removed = await execute(removeFaultRule, p, contextFor(p, flags.group), { group_id: flags.group, fault_id: args.id });
    this.log(`Removed fault rule ${removed.id}`);
    return removed;
  }
}
