import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { listKeys, type ApiKeyInfo } from '../../src/services/groups/keys.js';
import { table, when } from '../../src/render/table.js';

export default class KeyList extends PayctlCommand {
  static override description = 'List API keys (prefixes only; keys are never shown again)';
  static override examples = ['<%= config.bin %> key list', '<%= config.bin %> key list --group GROUP_ID --json'];
  static override flags = { group: Flags.string({ description: 'only keys of this group' }) };

  async run(): Promise<ApiKeyInfo[]> {
    const { flags } = await this.parse(KeyList);
    const keys = await listKeys(await this.platform(flags.db), flags.group);
    this.log(
      table(
        ['id', 'prefix', 'group', 'permissions', 'created', 'revoked'],
        keys.map((k) => [k.id, `${k.prefix}…`, k.group_id, k.permissions.join(', '), when(k.created_at), k.revoked_at ? when(k.revoked_at) : '']),
      ),
    );
    return keys;
  }
}
