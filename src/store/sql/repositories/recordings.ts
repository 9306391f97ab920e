// Recordings of a sandbox's API calls, in SQL both stores accept: the range of the
// group's request journal each covers (the calls themselves are the journal's).
import { fromJsonColumn, jsonColumn } from '../columns.js';
import type { RecordingStore, RecordingState } from '../../interfaces/recordings.js';

export const recordingRepo: RecordingStore = {
  async start(tx, groupId, at, fromSeq) {
    await tx.run('DELETE FROM sandbox_recordings WHERE group_id = ?', [groupId]);
    await tx.run('INSERT INTO sandbox_recordings (group_id, started_at, stopped_at, from_seq, until_seq) VALUES (?, ?, NULL, ?, NULL)', [groupId, at, fromSeq]);
  },
  stop: (tx, groupId, at, untilSeq) =>
    tx.run('UPDATE sandbox_recordings SET stopped_at = ?, until_seq = ? WHERE group_id = ? AND stopped_at IS NULL', [at, untilSeq, groupId]),
  find: (ex, groupId) => ex.get<RecordingState>('SELECT group_id, started_at, stopped_at, from_seq, until_seq FROM sandbox_recordings WHERE group_id = ?', [groupId]),
  async setDemo(tx, groupId, demo) {
    await tx.run('INSERT INTO sandbox_demos (group_id, ids) VALUES (?, ?)', [groupId, jsonColumn(demo)]);
  },
  demo: async (ex, groupId) => fromJsonColumn<Record<string, unknown>>((await ex.get<{ ids: string }>('SELECT ids FROM sandbox_demos WHERE group_id = ?', [groupId]))?.ids ?? null),
};
