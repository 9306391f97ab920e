// What another process may have changed since the last request, read once per request:
// the platform clock's offset and the configuration counter (groups, processors, keys,
// fault rules), in one statement shared by the requests that ask together — one store
// trip (on PostgreSQL, one transaction) where two separate reads were.
import { DbClock } from '../../services/clock/clock.js';
import type { Platform } from '../../services/platform.js';
import { configCache } from '../../store/config-cache.js';

/** Read both, set the platform clock's offset and check the configuration cache; resolves to the configuration version seen. */
export async function readFresh(p: Platform): Promise<number> {
  // The served platform is openPlatform's, whose clock is the database's (DbClock).
  if (!(p.clock instanceof DbClock)) throw new Error('readFresh: the served platform has no DbClock (open it with openPlatform)');
  const { config, clockOffsetMs } = await p.db.repos.versions.configAndClock(p.db);
  p.clock.adopt(clockOffsetMs);
  return configCache(p.db).observe(config);
}
