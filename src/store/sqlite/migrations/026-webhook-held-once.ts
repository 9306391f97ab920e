// A delivery a webhook fault held back (delay, reorder) is held at most once: the mark
// lives on the delivery row, so it holds after a restart and when another server (one
// PostgreSQL, several servers) makes the next attempt.
export default {
  version: 26,
  name: 'webhook-held-once',
  statements: ['ALTER TABLE webhook_deliveries ADD COLUMN held_once INTEGER NOT NULL DEFAULT 0'],
};
