// On PostgreSQL migration 32 adds the function readers of the event log ask how far the
// log is final (event positions are no longer taken under one lock held through each
// COMMIT: docs/postgresql.md, "Writes"). SQLite has one writer, so every position it
// reads is final; this version keeps the two stores' version numbers in step.
export default {
  version: 32,
  name: 'events-watermark',
  statements: [],
};
