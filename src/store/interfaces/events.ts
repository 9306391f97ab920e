// What the event log needs of a store, in domain entities; src/store implements it
// (repositories/events.ts).
import type { Executor, Tx } from '../interfaces/db.js';

/** An event as the log keeps it: its data as the object it is (`{ object, previous_attributes? }`). */
export interface EventEntity {
  id: string;
  group_id: string;
  type: string;
  created_at: string;
  request_id: string | null;
  idempotency_key: string | null;
  data: unknown;
}

export interface EventFilter {
  groupId: string;
  /** Exact types and `family.` prefixes (from `family.*`); none: every type. */
  types?: string[];
  prefixes?: string[];
  createdFrom?: string;
  createdTo?: string;
  /** Only events older than this id (ids are UUID v7, ordered by creation). */
  before?: string;
  limit: number;
}

export interface EventStore {
  /** Inside a write: appended with the write's other rows, in its transaction. */
  insert(tx: Tx, e: EventEntity): void;
  find(ex: Executor, groupId: string, id: string): Promise<EventEntity | undefined>;
  /** Newest first. */
  list(ex: Executor, f: EventFilter): Promise<EventEntity[]>;
  /** The last position of the whole log (0 when empty); positions (`seq`) are commit order across processes and never reused. */
  lastSeq(ex: Executor): Promise<number>;
  /** The position of one event of a group. */
  seqOf(ex: Executor, groupId: string, id: string): Promise<number | undefined>;
  /** A group's events after position `seq`, oldest first, each with its position. */
  after(ex: Executor, groupId: string, seq: number, limit: number): Promise<SequencedEvent[]>;
}

/** An event with its place in the log. */
export type SequencedEvent = EventEntity & { seq: number };
