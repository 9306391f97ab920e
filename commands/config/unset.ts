import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { readProfile, SETTING_NAMES, writeProfile, type SettingName } from '../../src/config/profile.js';

export default class ConfigUnset extends PayctlCommand {
  static override description = 'Remove a default from the profile beside the database';
  static override examples = ['<%= config.bin %> config unset group'];
  static override args = { name: Args.string({ description: 'setting', required: true, options: SETTING_NAMES }) };

  async run(): Promise<{ file: string; name: string; removed: boolean }> {
    const { args, flags } = await this.parse(ConfigUnset);
    const dataDir = this.dataDir(flags.db);
    const profile = readProfile(dataDir);
    const name = args.name as SettingName;
    const removed = profile[name] !== undefined;
    delete profile[name];
    const file = writeProfile(dataDir, profile);
    this.log(removed ? `${name} removed from ${file}` : `${name} was not set in ${file}`);
    return { file, name, removed };
  }
}
