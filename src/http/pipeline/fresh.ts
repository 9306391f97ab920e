// What another process may have changed since the last request, read once per request:
// the platform clock's offset and the configuration counter (groups, processors, keys,
// fault rules), in one statement shared by the requests that ask together — one store
// trip (on PostgreSQL, one transaction) where two separate reads were.
import { DbClock } from '../../services/clock/clock.js';
import type { Platform } from '../../services/platform.js';
import { configCache } from '../../store/config-cache.js';

/** Read both, set the platform clock's offset and check the configuration cache; resolves to the configuration version seen. */
export async function readFresh(p: Platform): Promise<number> {
  if (!(p.clock instanceof DbClock)) {
    // Only a platform opened by openPlatform is served; any other clock reads its own.
    const [version] = await Promise.all([configCache(p.db).check(p.db), p.clock.refresh()]);
    return version;
  }
  const { config, clockOffsetMs } = await p.db.repos.versions.configAndClock(p.db);
  p.clock.adopt(clockOffsetMs);
  return configCache(p.db).observe(config);
}
