import type { Executor, Tx } from '../db.js';

/** The platform clock's offset from real time. */
export const clockRepo = {
  async offset(ex: Executor): Promise<number> {
    return (await ex.get<{ offset_ms: number }>('SELECT offset_ms FROM clock WHERE id = 1'))?.offset_ms ?? 0;
  },
  setOffset: (ex: Tx, offsetMs: number) => ex.run('UPDATE clock SET offset_ms = ? WHERE id = 1', [offsetMs]),
};
