// Server state several servers on one database share (the pay rate limit's windows, the
// running servers' admin tokens) lives in PostgreSQL tables (below). One
// process serves a SQLite file, so here that state stays in the process's memory and
// this version has nothing to do; it keeps the two stores' version numbers in step.
import type { Version } from './migration.js';

export default {
  version: 24,
  name: 'shared-server-state',
  sqlite: [],
  postgres: [
    // The pay rate limit's counted hits (real-time ms). Unlogged: a crash forgets the windows, as a restart does on SQLite.
    `CREATE UNLOGGED TABLE rate_limit_hits (bucket TEXT COLLATE "C" NOT NULL, address TEXT COLLATE "C" NOT NULL, at_ms BIGINT NOT NULL)`,
    'CREATE INDEX rate_limit_hits_key ON rate_limit_hits (bucket, address, at_ms)',
    // One count: the pair is locked (to the end of the call's transaction), so counts of several servers are exact.
    `CREATE FUNCTION payctl_rate_hit(p_bucket TEXT, p_address TEXT, p_now BIGINT, p_window BIGINT, p_points BIGINT)
  RETURNS TABLE (allowed BOOLEAN, used BIGINT, oldest BIGINT) LANGUAGE plpgsql AS $$
DECLARE
  n BIGINT;
  earliest BIGINT;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(p_bucket), hashtext(p_address));
  DELETE FROM rate_limit_hits h WHERE h.bucket = p_bucket AND h.address = p_address AND h.at_ms <= p_now - p_window;
  SELECT count(*), min(h.at_ms) INTO n, earliest FROM rate_limit_hits h WHERE h.bucket = p_bucket AND h.address = p_address;
  allowed := n < p_points;
  IF allowed THEN
    INSERT INTO rate_limit_hits (bucket, address, at_ms) VALUES (p_bucket, p_address, p_now);
    n := n + 1;
    earliest := COALESCE(earliest, p_now);
  END IF;
  used := n;
  oldest := earliest;
  RETURN NEXT;
END $$`,
    // The running servers' admin tokens (SHA-256 only), each valid while its server renews its lease.
    `CREATE TABLE admin_tokens (server_id TEXT COLLATE "C" PRIMARY KEY, token_hash TEXT COLLATE "C" NOT NULL, expires_at TIMESTAMPTZ NOT NULL)`,
    'CREATE INDEX admin_tokens_hash ON admin_tokens (token_hash, expires_at)',
  ],
} satisfies Version;
