import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { checkSetting, readProfile, SETTING_NAMES, writeProfile } from '../../src/config/profile.js';
import { getGroup } from '../../src/services/groups/groups.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class ConfigSet extends PayctlCommand {
  static override description =
    'Save a default in the profile beside the database (config.json): `group` for every command that takes --group, `api-url` for commands that talk to a server. --group and PAYCTL_GROUP still override it.';
  static override examples = [
    '<%= config.bin %> config set group 0199b7a4-1c2d-7e3f-8a9b-0c1d2e3f4a5b',
    '<%= config.bin %> config set api-url http://127.0.0.1:4000',
  ];
  static override args = {
    name: Args.string({ description: 'setting', required: true, options: SETTING_NAMES }),
    value: Args.string({ description: 'value', required: true }),
  };

  async run(): Promise<{ file: string; name: string; value: string }> {
    const { args, flags } = await this.parse(ConfigSet);
    const name = checkSetting(args.name, args.value);
    const dataDir = this.dataDir(flags.db);
    if (name === 'group') {
      const p = await this.platform(flags.db);
      await execute(getGroup, p, contextFor(p, undefined), { group_id: args.value, named: true });
    }
    const file = writeProfile(dataDir, { ...readProfile(dataDir), [name]: args.value });
    this.log(`${name} = ${args.value} (saved in ${file})`);
    return { file, name, value: args.value };
  }
}
