// A fork of a sandbox runs in chunks (DESIGN "Bounds"): fork_jobs holds each
// fork under way (its new group's id, its source, which phase, table and row it is at,
// rows copied so far) and fork_map its ids old → new, kept per fork so a fork resumes
// after a kill -9 where its last committed chunk stopped. They replace the single
// transaction's scratch table fork_id_map. A group named in fork_jobs (not yet
// finished) is left out of every group's due work until its copy is whole.
export default {
  version: 23,
  name: 'fork-jobs',
  statements: [
    `DROP TABLE fork_id_map`,
    `CREATE TABLE fork_jobs (
      fork_id TEXT PRIMARY KEY,
      source_id TEXT NOT NULL,
      name TEXT NOT NULL,
      phase TEXT NOT NULL,
      step INTEGER NOT NULL DEFAULT 0,
      cursor TEXT NOT NULL DEFAULT '',
      copied TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE fork_map (
      fork_id TEXT NOT NULL,
      tbl TEXT NOT NULL,
      old_id TEXT NOT NULL,
      new_id TEXT NOT NULL,
      secret TEXT NOT NULL,
      PRIMARY KEY (fork_id, old_id)
    )`,
    `CREATE INDEX fork_map_table ON fork_map(fork_id, tbl)`,
  ],
};
