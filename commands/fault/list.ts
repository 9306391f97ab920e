import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { listFaultRules } from '../../src/services/faults/rules.js';
import type { ApiFaultRule } from '../../src/domain/faults.js';
import { faultRuleTable } from '../../src/render/faults.js';

export default class FaultList extends PayctlCommand {
  static override description = "List a group's fault rules with their seeds and counters (calls seen, calls fired)";
  static override examples = ['<%= config.bin %> fault list --group GROUP_ID', '<%= config.bin %> fault list --group GROUP_ID --json'];
  static override flags = { group: groupFlag };

  async run(): Promise<{ data: ApiFaultRule[] }> {
    const { flags } = await this.parse(FaultList);
    const p = await this.platform(flags.db);
    const rules = await execute(listFaultRules, p, contextFor(p, flags.group), { group_id: flags.group });
    this.log(faultRuleTable(rules.data));
    return rules;
  }
}
