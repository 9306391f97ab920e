import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { revokeKey } from '../../src/services/groups/keys.js';
import type { ApiKey } from '../../src/domain/groups.js';

export default class KeyRevoke extends PayctlCommand {
  static override description = 'Revoke an API key (requests with it get 401)';
  static override examples = ['<%= config.bin %> key revoke KEY_ID'];
  static override args = { id: Args.string({ description: 'key id (from key list)', required: true }) };

  async run(): Promise<ApiKey> {
    const { args, flags } = await this.parse(KeyRevoke);
    const p = await this.platform(flags.db);
    const key = await execute(revokeKey, p, contextFor(p, undefined), { key_id: args.id });
    this.log(`Revoked key ${key.id}`);
    return key;
  }
}
