import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createProcessor } from '../../src/services/groups/groups.js';
import type { Processor } from '../../src/domain/groups.js';
import type { ProcessorType } from '../../src/domain/permissions.js';

export default class ProcessorCreate extends PayctlCommand {
  static override description = 'Add a (simulated) processor to a group';
  static override examples = ['<%= config.bin %> processor create --group GROUP_ID --type transaction_level'];
  static override flags = {
    group: groupFlag,
    type: Flags.string({ description: 'processor type (commissions need transaction_level)', options: ['transaction_level', 'merchant_level'], required: true }),
    name: Flags.string({ description: 'display name' }),
  };

  async run(): Promise<Processor> {
    const { flags } = await this.parse(ProcessorCreate);
    const p = await this.platform(flags.db);
    const processor = await execute(createProcessor, p, contextFor(p, flags.group), { type: flags.type as ProcessorType, name: flags.name });
    this.log(`Created processor ${processor.id} (${processor.type})`);
    return processor;
  }
}
