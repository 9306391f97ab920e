// The request journal (docs/journal.md): every API call on a group, numbered per group
// (`seq`, 1, 2, …), its bodies already redacted (src/domain/sensitive.ts), bounded per
// group — the oldest dropped past the bounds and counted.
import type { Executor, Tx } from './db.js';

/** One call as the journal keeps it. */
export interface JournalEntry {
  group_id: string;
  /** The Request-Id the answer carried: the entry's id. */
  request_id: string;
  /** Real time (UTC, ISO-8601 with ms) when the call arrived. */
  at: string;
  method: string;
  path: string;
  /** The route's template (/api/v1/groups/:group_id/transaction). */
  route: string;
  status: number;
  duration_ms: number;
  idempotency_key: string | null;
  /** The fault drawn, as the Payctl-Fault header says it. */
  fault: string | null;
  /** Made with the group's key or the admin token (or a public call naming it), and not `Payctl-Record: off`: a recording's step. */
  recordable: boolean;
  /** Headers a replay needs (Idempotency-Key, Payctl-Simulate), as JSON text. */
  headers: string | null;
  /** The request body as JSON text, redacted; null without one (or not kept: see note). */
  body: string | null;
  /** The answer body as JSON text, redacted; null without one. */
  answer: string | null;
  /** Why a body or answer was not kept (too deep, too large), else null. */
  note: string | null;
  /** What the entry weighs against its group's byte bound. */
  bytes: number;
}

export interface StoredJournalEntry extends JournalEntry {
  seq: number;
}

/** A call as it is read back with its JSON read (the store's encoding): headers, body and answer as values. */
export interface JournalCall extends Omit<StoredJournalEntry, 'headers' | 'body' | 'answer'> {
  /** Headers a replay needs (Idempotency-Key, Payctl-Simulate). */
  headers: Record<string, string> | null;
  /** The request body, redacted; null without one (or not kept: see note). */
  body: unknown;
  /** The answer body, redacted; null without one. */
  answer: unknown;
}

export interface JournalBounds {
  /** Entries kept per group at most. */
  entries: number;
  /** Bytes (bodies, answers, paths) kept per group at most. */
  bytes: number;
}

/** A group's journal as a whole. */
export interface JournalState {
  /** The last sequence number handed out (0 before any entry). */
  last_seq: number;
  entries: number;
  bytes: number;
  /** Entries dropped by the bounds since the group's first. */
  dropped: number;
}

export interface JournalQuery {
  group_id: string;
  /** Entries after this sequence number (exclusive). */
  after_seq?: number;
  /** Entries up to this sequence number (inclusive). */
  until_seq?: number;
  method?: string;
  path?: string;
  path_prefix?: string;
  status_min?: number;
  status_max?: number;
  /** Arrived at or after this instant. */
  since?: string;
  recordable?: true;
  /** Newest first (by `seq`, descending) instead of oldest first: the newest `limit` that match. */
  newest_first?: true;
  limit: number;
}

export interface JournalStore {
  /** Append entries (of any groups) in order, numbering each group's, and drop each group's oldest past `bounds`. */
  append(tx: Tx, entries: JournalEntry[], bounds: JournalBounds): Promise<void>;
  /** The calls with their bodies as the JSON text kept (a recording's JSON is made of those texts as they are). */
  list(ex: Executor, q: JournalQuery): Promise<StoredJournalEntry[]>;
  /** The same calls, their headers and bodies read (exact integers: lib/exact-json.ts). */
  listCalls(ex: Executor, q: JournalQuery): Promise<JournalCall[]>;
  count(ex: Executor, q: Omit<JournalQuery, 'limit'>): Promise<number>;
  state(ex: Executor, groupId: string): Promise<JournalState | undefined>;
  /** The sequence number of the entry with this request id, if the group's journal still holds it. */
  seqOf(ex: Executor, groupId: string, requestId: string): Promise<number | undefined>;
  /** The oldest sequence number the group's journal still holds (undefined when it holds none). */
  firstSeq(ex: Executor, groupId: string): Promise<number | undefined>;
}
