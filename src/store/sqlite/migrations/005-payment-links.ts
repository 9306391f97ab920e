// Payment links and their session tokens. A link with amount NULL is an open-amount
// link (the payer names the amount). status is stored as available, paid or
// deactivated; `expired` is derived when read from expires_at and the platform clock
// (the value is allowed here so a later sweep can persist it). Session tokens are kept
// only as a SHA-256 hash, each scoped to one link, with their platform-time expiry.
export default {
  version: 5,
  name: 'payment-links',
  statements: [
    `CREATE TABLE payment_links (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      processor_id TEXT NOT NULL REFERENCES processors(id),
      amount INTEGER,
      description TEXT NOT NULL,
      redirect_url TEXT NOT NULL DEFAULT '',
      card_enabled INTEGER NOT NULL,
      ach_enabled INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('available', 'paid', 'deactivated', 'expired')),
      expires_at TEXT,
      paid_transaction_id TEXT REFERENCES transactions(id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX payment_links_group_created ON payment_links(group_id, created_at DESC, id DESC)`,
    `CREATE TABLE payment_link_sessions (
      token_hash TEXT PRIMARY KEY,
      payment_link_id TEXT NOT NULL REFERENCES payment_links(id),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`,
    `CREATE INDEX payment_link_sessions_expires ON payment_link_sessions(expires_at)`,
  ],
};
