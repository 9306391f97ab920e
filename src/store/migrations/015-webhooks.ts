// Webhook endpoints, their deliveries and every attempt. A delivery is a row made in the
// transaction that appends its event (the trigger below: nothing to forget in service
// code, and an event committed just before a kill -9 still has its deliveries); senders
// claim due deliveries with a lease (compare-and-set), send after commit, and record
// each attempt. Deliveries are due on their group's clock (`next_attempt_at` is the
// group's time); the lease is real time (it guards processes, not business time).
//
// Endpoint changes bump config_version, so a server's cached "which groups have
// endpoints" (it skips the delivery pass for groups without) sees changes by any process.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';
import { bumpTrigger, eventDeliveriesFunction } from './postgres-functions.js';

const bump = (event: 'INSERT' | 'UPDATE' | 'DELETE') =>
  `CREATE TRIGGER webhook_endpoints_config_${event.toLowerCase()} AFTER ${event} ON webhook_endpoints
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE webhook_endpoints (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      url ${t.text} NOT NULL,
      description ${t.text},
      enabled_events ${t.json} NOT NULL,
      disabled ${t.int} NOT NULL DEFAULT 0,
      secret ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX webhook_endpoints_group ON webhook_endpoints(group_id, id)`,
  `CREATE TABLE webhook_deliveries (
      id ${t.rowidKey},
      group_id ${t.text} NOT NULL,
      endpoint_id ${t.text} NOT NULL,
      event_id ${t.text} NOT NULL,
      status ${t.text} NOT NULL,
      attempts ${t.int} NOT NULL DEFAULT 0,
      next_attempt_at ${t.text},
      lease_owner ${t.text},
      lease_until ${t.int},
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id)`,
  `CREATE TABLE webhook_attempts (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL,
      endpoint_id ${t.text} NOT NULL,
      delivery_id ${t.int} NOT NULL,
      event_id ${t.text} NOT NULL,
      event_type ${t.text} NOT NULL,
      attempt ${t.int} NOT NULL,
      status ${t.text} NOT NULL,
      response_status ${t.int},
      response_body ${t.text},
      error ${t.text},
      latency_ms ${t.int} NOT NULL,
      scheduled_at ${t.text} NOT NULL,
      next_attempt_at ${t.text},
      created_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, attempt)`,
  `CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, id)`,
];

export default {
  version: 15,
  name: 'webhooks',
  sqlite: [
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
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
  postgres: [
    ...ddl(POSTGRES_DDL),
    eventDeliveriesFunction('json_array_elements_text'),
    `CREATE TRIGGER events_webhook_deliveries AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION payctl_event_deliveries()`,
    bumpTrigger('payctl_config_bump', 'webhook_endpoints'),
  ],
} satisfies Version;
