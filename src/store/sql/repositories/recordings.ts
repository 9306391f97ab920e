// Recordings of a sandbox's API calls, in SQL both stores accept (the calls' JSON
// documents are text on SQLite, jsonb on PostgreSQL; both read back as text).
import type { RecordingStore, RecordedCall, RecordingState } from '../../interfaces/recordings.js';

export const recordingRepo: RecordingStore = {
  async start(tx, groupId, at) {
    await tx.run('DELETE FROM sandbox_recording_calls WHERE group_id = ?', [groupId]);
    await tx.run('DELETE FROM sandbox_recordings WHERE group_id = ?', [groupId]);
    await tx.run('INSERT INTO sandbox_recordings (group_id, started_at, stopped_at) VALUES (?, ?, NULL)', [groupId, at]);
  },
  stop: (tx, groupId, at) => tx.run('UPDATE sandbox_recordings SET stopped_at = ? WHERE group_id = ? AND stopped_at IS NULL', [at, groupId]),
  find: (ex, groupId) => ex.get<RecordingState>('SELECT group_id, started_at, stopped_at FROM sandbox_recordings WHERE group_id = ?', [groupId]),
  listActive: async (ex) => (await ex.all<{ group_id: string }>('SELECT group_id FROM sandbox_recordings WHERE stopped_at IS NULL')).map((r) => r.group_id),
  async append(tx, c) {
    await tx.run(
      'INSERT INTO sandbox_recording_calls (group_id, method, path, route, headers, body, status, answer, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [c.group_id, c.method, c.path, c.route, c.headers, c.body, c.status, c.answer, c.recorded_at],
    );
  },
  calls: (ex, groupId) =>
    ex.all<RecordedCall>('SELECT id, group_id, method, path, route, headers, body, status, answer, recorded_at FROM sandbox_recording_calls WHERE group_id = ? ORDER BY id', [groupId]),
  async setDemo(tx, groupId, demo) {
    await tx.run('INSERT INTO sandbox_demos (group_id, ids) VALUES (?, ?)', [groupId, demo]);
  },
  demo: async (ex, groupId) => (await ex.get<{ ids: string }>('SELECT ids FROM sandbox_demos WHERE group_id = ?', [groupId]))?.ids ?? null,
};
