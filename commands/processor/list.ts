import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listProcessors } from '../../src/services/groups/groups.js';
import type { Processor } from '../../src/domain/groups.js';
import { processorTable } from '../../src/render/platform.js';

export default class ProcessorList extends PayctlCommand {
  static override description = "List a group's processors";
  static override examples = ['<%= config.bin %> processor list --group GROUP_ID'];
  static override flags = { group: groupFlag };

  async run(): Promise<Processor[]> {
    const { flags } = await this.parse(ProcessorList);
    const p = await this.platform(flags.db);
    const processors = await execute(listProcessors, p, contextFor(p, flags.group), {});
    this.log(processorTable(processors));
    return processors;
  }
}
