// Fewer b-trees per webhook attempt and delivery (each one is written per delivery, and a
// delivery's database work is most of its server CPU: docs/benchmarks/webhooks.md).
//
// Attempts are only ever read by endpoint, newest first (the attempts list, `webhook
// deliveries ID`), deleted by endpoint (with it) or by group (a sandbox drop, a scan). As
// a rowid table with a text primary key and an endpoint index, an attempt was written into
// three b-trees; keyed by (endpoint_id, id) WITHOUT ROWID it is one, in the order the
// list reads.
import type { Version } from './migration.js';

const ATTEMPT_COLUMNS =
  'id, group_id, endpoint_id, delivery_id, event_id, event_type, attempt, status, response_status, response_body, error, latency_ms, scheduled_at, next_attempt_at, created_at';

export default {
  version: 19,
  name: 'webhook-rows',
  sqlite: [
    `CREATE TABLE webhook_attempts_019 (
      id TEXT NOT NULL,
      group_id TEXT NOT NULL,
      endpoint_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      status TEXT NOT NULL,
      response_status INTEGER,
      response_body TEXT,
      error TEXT,
      latency_ms INTEGER NOT NULL,
      scheduled_at TEXT NOT NULL,
      next_attempt_at TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (endpoint_id, id)
    ) WITHOUT ROWID`,
    `INSERT INTO webhook_attempts_019 (${ATTEMPT_COLUMNS}) SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts`,
    `DROP TABLE webhook_attempts`,
    `ALTER TABLE webhook_attempts_019 RENAME TO webhook_attempts`,
  ],
  postgres: [
    'ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_pkey',
    'ALTER TABLE webhook_attempts ADD PRIMARY KEY (endpoint_id, id)',
  ],
} satisfies Version;
