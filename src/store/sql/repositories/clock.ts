import type { ClockStore } from '../../interfaces/platform.js';
import { getFresh, type Executor, type Tx } from '../../interfaces/db.js';

/** The platform clock's offset from real time. */
export const clockRepo: ClockStore = {
  /** Read by every request: on the database's reader, one read serves the requests that ask together. */
  async offset(ex: Executor): Promise<number> {
    return (await getFresh<{ offset_ms: number }>(ex, 'SELECT offset_ms FROM clock WHERE id = 1'))?.offset_ms ?? 0;
  },
  setOffset: (ex: Tx, offsetMs: number) => ex.run('UPDATE clock SET offset_ms = ? WHERE id = 1', [offsetMs]),
};
