// A recording on the wire (GET /api/v1/sandboxes/{group_id}/recording, format json): the
// summary's fields and `data`, the calls, written a page at a time from the JSON texts the
// journal kept (nothing parsed to be serialised again), so a long recording streams in
// bounded memory.
import { stringifyJson } from '../lib/exact-json.js';
import type { RecordingJson } from '../services/sandboxes/recordings.js';
import type { StoredJournalEntry } from '../store/interfaces/journal.js';

/** One recorded call as JSON text, from the journal's texts as they are. */
function callText(e: StoredJournalEntry): string {
  const s = (v: string) => JSON.stringify(v);
  return `{"method":${s(e.method)},"path":${s(e.path)},"route":${s(e.route)},"headers":${e.headers ?? 'null'},"body":${e.body ?? 'null'},"status":${e.status},"answer":${e.answer ?? 'null'}${e.note ? `,"note":${s(e.note)}` : ''}}`;
}

/** The recording's JSON text in pieces. */
export async function* recordingJsonText(r: RecordingJson): AsyncGenerator<string> {
  yield `${stringifyJson(r.summary).slice(0, -1)},"data":[`;
  let first = true;
  for await (const page of r.pages) {
    for (const call of page) {
      yield (first ? '' : ',') + callText(call);
      first = false;
    }
  }
  yield ']}';
}
