// Webhook endpoints, their deliveries and every attempt. A delivery is a row made in the
// transaction that appends its event (the trigger below: nothing to forget in service
// code, and an event committed just before a kill -9 still has its deliveries); senders
// claim due deliveries with a lease (compare-and-set), send after commit, and record
// each attempt. Deliveries are due on their group's clock (`next_attempt_at` is the
// group's time); the lease is real time (it guards processes, not business time).
//
// Endpoint changes bump config_version, so a server's cached "which groups have
// endpoints" (it skips the delivery pass for groups without) sees changes by any process.
const bump = (event: 'INSERT' | 'UPDATE' | 'DELETE') =>
  `CREATE TRIGGER webhook_endpoints_config_${event.toLowerCase()} AFTER ${event} ON webhook_endpoints
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

export default {
  version: 15,
  name: 'webhooks',
  statements: [
    `CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      url TEXT NOT NULL,
      description TEXT,
      enabled_events TEXT NOT NULL,
      disabled INTEGER NOT NULL DEFAULT 0,
      secret TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX webhook_endpoints_group ON webhook_endpoints(group_id, id)`,
    `CREATE TABLE webhook_deliveries (
      id INTEGER PRIMARY KEY,
      group_id TEXT NOT NULL,
      endpoint_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      lease_owner TEXT,
      lease_until INTEGER,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending'`,
    `CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id)`,
    `CREATE TABLE webhook_attempts (
      id TEXT PRIMARY KEY,
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
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, attempt)`,
    `CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, id)`,
    // One delivery per enabled endpoint of the event's group whose enabled_events (a JSON
    // array of types, family wildcards like transaction.* and *) match the event's type.
    `CREATE TRIGGER events_webhook_deliveries AFTER INSERT ON events
BEGIN
  INSERT INTO webhook_deliveries (group_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
  SELECT NEW.group_id, w.id, NEW.id, 'pending', 0, NEW.created_at, NEW.created_at
  FROM webhook_endpoints w
  WHERE w.group_id = NEW.group_id AND w.disabled = 0
    AND EXISTS (SELECT 1 FROM json_each(w.enabled_events) p
                WHERE p.value IN ('*', NEW.type, substr(NEW.type, 1, instr(NEW.type, '.')) || '*'));
END`,
    ...(['INSERT', 'UPDATE', 'DELETE'] as const).map(bump),
  ],
};
