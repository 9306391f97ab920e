import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createLinkedAccount } from '../../src/services/groups/groups.js';
import type { LinkedAccount } from '../../src/domain/groups.js';

export default class LinkedAccountCreate extends PayctlCommand {
  static override description = 'Add a linked processing account to a group (the {linked_account_id} of API paths)';
  static override examples = ['<%= config.bin %> linked-account create --group GROUP_ID --processor PROCESSOR_ID'];
  static override flags = {
    group: groupFlag,
    processor: Flags.string({ description: 'processor id of the group', required: true }),
    name: Flags.string({ description: 'display name' }),
  };

  async run(): Promise<LinkedAccount> {
    const { flags } = await this.parse(LinkedAccountCreate);
    const p = await this.platform(flags.db);
    const account = await execute(createLinkedAccount, p, contextFor(p, flags.group), { processor_id: flags.processor, name: flags.name });
    this.log(`Created linked account ${account.id}`);
    return account;
  }
}
