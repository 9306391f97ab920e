// Fault rules of a sandbox (docs/faults.md): the rule as JSON (its shape is the domain's
// schema), its seed, and its counters (matching calls seen, calls fired). Adding or
// removing a rule bumps config_version, the counter every request already reads, so a
// server keeps the rules in memory and a group without rules costs no read at all;
// counting a call (an UPDATE) does not bump it.
const bump = (event: 'INSERT' | 'DELETE') =>
  `CREATE TRIGGER fault_rules_config_${event.toLowerCase()} AFTER ${event} ON fault_rules
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

export default {
  version: 20,
  name: 'fault-rules',
  statements: [
    `CREATE TABLE fault_rules (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      rule TEXT NOT NULL,
      seed INTEGER NOT NULL,
      calls INTEGER NOT NULL DEFAULT 0,
      fired INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`,
    'CREATE INDEX fault_rules_group ON fault_rules (group_id, created_at)',
    bump('INSERT'),
    bump('DELETE'),
  ],
};
