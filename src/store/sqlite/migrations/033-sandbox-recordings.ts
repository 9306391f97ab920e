// Recording a sandbox's API traffic as a scenario (docs/scenarios.md): whether a group
// records (starting or stopping bumps config_version, so a server keeps the recording
// groups in memory and a group that does not record costs no read), the recorded calls
// in order (secrets already taken out: src/domain/recording.ts), and the ids a sandbox's
// demo data got at creation, so a recording refers to them as ${demo.*}.
const bump = (event: 'INSERT' | 'UPDATE' | 'DELETE') =>
  `CREATE TRIGGER sandbox_recordings_config_${event.toLowerCase()} AFTER ${event} ON sandbox_recordings
BEGIN
  UPDATE config_version SET n = n + 1 WHERE id = 1;
END`;

export default {
  version: 33,
  name: 'sandbox-recordings',
  statements: [
    `CREATE TABLE sandbox_recordings (
      group_id TEXT PRIMARY KEY REFERENCES groups(id),
      started_at TEXT NOT NULL,
      stopped_at TEXT
    )`,
    `CREATE TABLE sandbox_recording_calls (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      group_id TEXT NOT NULL REFERENCES groups(id),
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      route TEXT NOT NULL,
      headers TEXT,
      body TEXT,
      status INTEGER NOT NULL,
      answer TEXT,
      recorded_at TEXT NOT NULL
    )`,
    'CREATE INDEX sandbox_recording_calls_group ON sandbox_recording_calls (group_id, id)',
    // One row per sandbox made with demo data (a fork or an import of it has none: the ids would be the source's).
    'CREATE TABLE sandbox_demos (group_id TEXT PRIMARY KEY REFERENCES groups(id), ids TEXT NOT NULL)',
    bump('INSERT'),
    bump('UPDATE'),
    bump('DELETE'),
  ],
};
