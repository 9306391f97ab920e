// Row claims in the repositories' one SQL text. A SELECT that picks background work for
// a write (a chunk of billing, settlement, past due…) ends with SKIP_LOCKED; one that
// must wait its turn on a row (a fork's job row) with LOCK. On SQLite they are comments:
// one write transaction runs at a time, so what a write read stays its own to COMMIT.
// The PostgreSQL store's translator (postgres/sql.ts) makes them FOR UPDATE [SKIP
// LOCKED] and runs such writes READ COMMITTED (WriteOptions.claims): rows another
// server's transaction holds are passed over, not fought for, and a claim ends with its
// transaction (COMMIT, ROLLBACK, or the connection of a killed server closing).
export const SKIP_LOCKED = ' /* FOR UPDATE SKIP LOCKED */';
export const LOCK = ' /* FOR UPDATE */';
