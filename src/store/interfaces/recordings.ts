// Recordings of a sandbox's API calls (src/services/sandboxes/recordings.ts): which
// groups record, their calls in order, and the ids a sandbox's demo data got.
import type { Executor, RunResult, Tx } from './db.js';

export interface RecordedCall {
  id?: number;
  group_id: string;
  method: string;
  /** The path as called. */
  path: string;
  /** The route's pattern (/api/v1/groups/:group_id/transaction). */
  route: string;
  /** Headers kept (Idempotency-Key, Payctl-Simulate), as JSON text, or null. */
  headers: string | null;
  /** The request body as JSON text (secrets taken out), or null. */
  body: string | null;
  status: number;
  /** The answer body as JSON text (secrets taken out), or null. */
  answer: string | null;
  recorded_at: string;
}

export interface RecordingState {
  group_id: string;
  started_at: string;
  stopped_at: string | null;
}

export interface RecordingStore {
  /** Start (again): a new recording of the group replaces its old calls. */
  start(tx: Tx, groupId: string, at: string): Promise<void>;
  stop(tx: Tx, groupId: string, at: string): Promise<RunResult>;
  find(ex: Executor, groupId: string): Promise<RecordingState | undefined>;
  /** The groups recording now. */
  listActive(ex: Executor): Promise<string[]>;
  append(tx: Tx, call: RecordedCall): Promise<void>;
  calls(ex: Executor, groupId: string): Promise<RecordedCall[]>;
  setDemo(tx: Tx, groupId: string, demo: string): Promise<void>;
  demo(ex: Executor, groupId: string): Promise<string | null>;
}
