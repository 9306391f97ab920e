import { getFresh } from '../../interfaces/db.js';
import type { VersionStore } from '../../interfaces/platform.js';

export const versionsRepo: VersionStore = {
  /** Bumped by triggers on groups, processors and api_keys (migration 010). */
  async config(ex) {
    return (await getFresh<{ n: number }>(ex, 'SELECT n FROM config_version WHERE id = 1'))?.n ?? -1;
  },
  async schema(ex) {
    return Number((await ex.get<{ v: number | string | null }>('SELECT MAX(version) AS v FROM schema_migrations'))?.v ?? 0);
  },
};
