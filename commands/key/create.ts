import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createKey } from '../../src/services/groups/keys.js';
import type { ApiKey } from '../../src/domain/groups.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';

export default class KeyCreate extends PayctlCommand {
  static override description = 'Issue an API key for a group (printed once; only its hash is kept)';
  static override examples = [
    '<%= config.bin %> key create --group GROUP_ID --permission manage_transactions',
    '<%= config.bin %> key create --group GROUP_ID --permission view_invoices --permission manage_invoices --json',
  ];
  static override flags = {
    group: groupFlag,
    permission: Flags.string({ description: 'permission kind (repeat for several)', options: [...PERMISSIONS], multiple: true, required: true }),
    name: Flags.string({ description: 'a label to recognise the key by' }),
  };

  async run(): Promise<ApiKey & { key: string }> {
    const { flags } = await this.parse(KeyCreate);
    const p = await this.platform(flags.db);
    const created = await execute(createKey, p, contextFor(p, flags.group), { permissions: flags.permission, name: flags.name });
    this.log(`Created key ${created.id} (${created.permissions.join(', ')})`);
    this.log(`Key (shown once): ${created.key}`);
    return created;
  }
}
