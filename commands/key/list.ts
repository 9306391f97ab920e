import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupFilterFlag } from '../../src/cli/flags/group.js';
import { listKeys } from '../../src/services/groups/keys.js';
import type { ApiKey } from '../../src/domain/groups.js';
import { keyTable } from '../../src/render/platform.js';

export default class KeyList extends PayctlCommand {
  static override description = 'List API keys (prefixes only; keys are never shown again)';
  static override examples = ['<%= config.bin %> key list', '<%= config.bin %> key list --group GROUP_ID --json'];
  static override flags = { group: groupFilterFlag('only keys of this group') };

  async run(): Promise<ApiKey[]> {
    const { flags } = await this.parse(KeyList);
    const p = await this.platform(flags.db);
    const keys = await execute(listKeys, p, contextFor(p, flags.group), {});
    this.log(keyTable(keys));
    return keys;
  }
}
