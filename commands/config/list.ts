import { PayctlCommand } from '../../src/cli/base.js';
import { profilePath, readProfile, resolveSetting, SETTING_NAMES, SETTINGS, type SettingSource } from '../../src/config/profile.js';
import { table } from '../../src/render/table.js';
import { dbName, dbOrigin, dbTargetFrom } from '../../src/config/env.js';

const ORDER = 'the command flag (--group), then the environment (PAYCTL_GROUP, PAYCTL_API_URL), then the profile file, then the built-in default';

export default class ConfigList extends PayctlCommand {
  static override description = `Show which database this folder uses and why, then each setting, its value and where it comes from: ${ORDER}`;
  static override examples = ['<%= config.bin %> config list', 'PAYCTL_GROUP=… <%= config.bin %> config list --json'];

  async run(): Promise<{ database: { location: string; from: string }; file: string; order: string; settings: Record<string, { value: string | null; source: SettingSource; env: string; saved: string | null }> }> {
    const { flags } = await this.parse(ConfigList);
    const dataDir = this.dataDir(flags.db);
    const profile = readProfile(dataDir);
    const settings = Object.fromEntries(
      SETTING_NAMES.map((name) => {
        const r = resolveSetting(name, { dataDir, profile });
        return [name, { value: r.value ?? null, source: r.source, env: SETTINGS[name].env, saved: profile[name] ?? null }];
      }),
    );
    const file = profilePath(dataDir);
    // Which database (and so which profile) this folder uses, and why: --db, PAYCTL_DB, or found upward.
    const database = { location: dbName(dbTargetFrom(flags.db)), from: dbOrigin(this.argv.some((a) => a === '--db' || a.startsWith('--db='))) };
    this.log(`database: ${database.location}\n  from ${database.from}`);
    this.log(table(['setting', 'value', 'from', 'saved in profile'], Object.entries(settings).map(([n, s]) => [n, s.value ?? '(none)', s.source === 'env' ? s.env : s.source, s.saved ?? ''])));
    this.log(`profile: ${file}\norder: ${ORDER}`);
    return { database, file, order: ORDER, settings };
  }
}
