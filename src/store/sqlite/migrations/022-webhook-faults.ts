// Fault rules of a webhook endpoint (docs/faults.md), beside the API's (020): the rule as
// JSON, its seed and counters; adding or removing one bumps config_version, so a sender
// keeps them in memory and an endpoint without rules costs nothing. An attempt records
// the fault it got (`fault`, null for none): `webhook deliveries` shows it.
const bump = (event: 'INSERT' | 'DELETE') =>
  `CREATE TRIGGER webhook_fault_rules_config_${event.toLowerCase()} AFTER ${event} ON webhook_fault_rules
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

export default {
  version: 22,
  name: 'webhook-faults',
  statements: [
    `CREATE TABLE webhook_fault_rules (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      endpoint_id TEXT NOT NULL,
      rule TEXT NOT NULL,
      seed INTEGER NOT NULL,
      calls INTEGER NOT NULL DEFAULT 0,
      fired INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`,
    'CREATE INDEX webhook_fault_rules_endpoint ON webhook_fault_rules (endpoint_id, created_at)',
    bump('INSERT'),
    bump('DELETE'),
    'ALTER TABLE webhook_attempts ADD COLUMN fault TEXT',
  ],
};
