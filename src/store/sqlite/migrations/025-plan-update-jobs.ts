// A plan update that reaches every active subscription of its plan (update_subscriptions)
// runs in chunks (DESIGN "Bounds"): plan_update_jobs holds each one under way — the
// plan, the proration behaviour, the time of the update, the request that made it, and
// the last subscription id done — so the chunks go on where the last committed one
// stopped, after a kill -9 too (the server's tick).
export default {
  version: 25,
  name: 'plan-update-jobs',
  statements: [
    `CREATE TABLE plan_update_jobs (
      plan_id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL,
      linked_account_id TEXT NOT NULL,
      behavior TEXT NOT NULL,
      cursor TEXT NOT NULL DEFAULT '',
      updated_at TEXT NOT NULL,
      request_id TEXT,
      idempotency_key TEXT
    )`,
    `CREATE INDEX plan_update_jobs_group ON plan_update_jobs(group_id)`,
  ],
};
