// On PostgreSQL this version adds the function readers of the event log ask how far the
// log is final (event positions are no longer taken under one lock held through each
// COMMIT: docs/postgresql.md, "Writes"). SQLite has one writer, so every position it
// reads is final; this version keeps the two stores' version numbers in step.
import type { Version } from './migration.js';

/** The advisory lock class of event writers (the key's second half is the writer's backend pid; ../postgres/events.ts). */
export const EVENTS_WRITER_LOCK = 7_262_012;

export default {
  version: 32,
  name: 'events-watermark',
  sqlite: [],
  postgres: [
    // How far the event log may be final: the sequence's last value, read first, and the
    // writes holding a writer lock (EVENTS_WRITER_LOCK, their backend's pid) at that
    // moment. A write takes that lock before its first position and holds it to its
    // end, so every position up to the value is final (committed and visible, or rolled
    // back) once those writes have ended: the reader checks that (../events.ts) on a
    // connection of its own choosing, without waiting inside the database — a wait here
    // would hold a pool connection that a write it waits for may need.
    `CREATE OR REPLACE FUNCTION payctl_events_watermark(OUT high bigint, OUT writers text[]) LANGUAGE plpgsql AS $$
BEGIN
  high := COALESCE(pg_sequence_last_value(pg_get_serial_sequence('events', 'seq')::regclass), 0);
  SELECT COALESCE(array_agg(l.virtualtransaction), '{}') INTO writers FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.classid = ${EVENTS_WRITER_LOCK} AND l.objsubid = 2 AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> pg_backend_pid();
END $$`,
  ],
} satisfies Version;
