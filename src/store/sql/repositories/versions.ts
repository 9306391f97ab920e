import { getFresh } from '../../interfaces/db.js';
import type { VersionStore } from '../../interfaces/platform.js';

export const versionsRepo: VersionStore = {
  /** Bumped by triggers on groups, processors and api_keys (migration 010). */
  async config(ex) {
    return (await getFresh<{ n: number }>(ex, 'SELECT n FROM config_version WHERE id = 1'))?.n ?? -1;
  },
  async configAndClock(ex) {
    const row = await getFresh<{ config: number | null; clock_offset_ms: number | null }>(
      ex,
      'SELECT (SELECT n FROM config_version WHERE id = 1) AS config, (SELECT offset_ms FROM clock WHERE id = 1) AS clock_offset_ms',
    );
    return { config: row?.config ?? -1, clockOffsetMs: row?.clock_offset_ms ?? 0 };
  },
  async schema(ex) {
    return Number((await ex.get<{ v: number | string | null }>('SELECT MAX(version) AS v FROM schema_migrations'))?.v ?? 0);
  },
};
