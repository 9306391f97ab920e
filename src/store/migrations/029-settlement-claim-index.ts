// PostgreSQL's planner needed two things for the background claims (below): a
// partial index handing settlement its chunk in (created_at, id) order, and statistics on
// `groups` kept fresh. SQLite's planner keeps its plans without statistics and every
// index costs each sale's insert here, so this version has nothing to do on SQLite; it
// keeps the two stores' version numbers in step.
import type { Version } from './migration.js';

export default {
  version: 29,
  name: 'settlement-claim-index',
  sqlite: [],
  postgres: [
    // Settlement claims the oldest unsettled sales of three statuses in (created_at, id)
    // order; the (status, created_at) index cannot give that order, so each chunk sorted
    // every candidate (218 ms a chunk at 80,000).
    `CREATE INDEX transactions_settle_due ON transactions (created_at, id) WHERE status IN ('pending', 'captured', 'partially_captured')`,
    // The claims' clock-offset scope reads `groups`; a database built through the API
    // changes too few of its rows for autovacuum's default threshold (50), and with no
    // statistics the planner took a sequential scan and sort of every subscription for
    // each billing chunk. Analyzed after a few changes instead.
    'ALTER TABLE groups SET (autovacuum_analyze_threshold = 1, autovacuum_analyze_scale_factor = 0.1)',
    'ANALYZE groups',
  ],
} satisfies Version;
