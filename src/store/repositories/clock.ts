import type { Executor, Tx } from '../db.js';

/** The platform clock's offset from real time, and where each scheduled job ran up to. */
export const clockRepo = {
  async offset(ex: Executor): Promise<number> {
    return (await ex.get<{ offset_ms: number }>('SELECT offset_ms FROM clock WHERE id = 1'))?.offset_ms ?? 0;
  },
  setOffset: (ex: Tx, offsetMs: number) => ex.run('UPDATE clock SET offset_ms = ? WHERE id = 1', [offsetMs]),
};

export const jobRunsRepo = {
  async ranUntil(ex: Executor, job: string): Promise<string | undefined> {
    return (await ex.get<{ ran_until: string }>('SELECT ran_until FROM job_runs WHERE job = ?', [job]))?.ran_until;
  },
  /** Record progress; never moves backwards (two runners may finish out of order). */
  record: (ex: Tx, job: string, until: string) =>
    ex.run(
      `INSERT INTO job_runs (job, ran_until) VALUES (?, ?)
       ON CONFLICT (job) DO UPDATE SET ran_until = excluded.ran_until WHERE excluded.ran_until > job_runs.ran_until`,
      [job, until],
    ),
};
