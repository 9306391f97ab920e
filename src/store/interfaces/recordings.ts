// Recordings of a sandbox's API calls (src/services/sandboxes/recordings.ts): which
// groups record and the range of their journal a recording covers (its calls are the
// journal's: ./journal.ts), and the ids a sandbox's demo data got.
import type { Executor, RunResult, Tx } from './db.js';

export interface RecordingState {
  group_id: string;
  started_at: string;
  stopped_at: string | null;
  /** The first journal entry of the group the recording covers. */
  from_seq: number;
  /** The last one, once stopped (null while it records). */
  until_seq: number | null;
}

export interface RecordingStore {
  /** Start (again): a new recording of the group replaces its old one, covering its journal from `fromSeq`. */
  start(tx: Tx, groupId: string, at: string, fromSeq: number): Promise<void>;
  stop(tx: Tx, groupId: string, at: string, untilSeq: number): Promise<RunResult>;
  find(ex: Executor, groupId: string): Promise<RecordingState | undefined>;
  /** The ids a sandbox's demo data got (`${demo.*}` in a recording's scenario file). */
  setDemo(tx: Tx, groupId: string, demo: Record<string, unknown>): Promise<void>;
  demo(ex: Executor, groupId: string): Promise<Record<string, unknown> | null>;
}
