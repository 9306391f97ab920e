// What the webhook use cases and the delivery job need of a store, in domain entities;
// src/store implements it (repositories/webhooks.ts). Deliveries are made by the store
// itself when an event is appended (on SQLite a trigger, migration 015).
import type { Executor, RunResult, Tx } from '../interfaces/db.js';
import type { GroupScope } from './scope.js';

/** How an endpoint gets its deliveries: POSTed to its `url`, or collected in its group's inbox. */
export type WebhookEndpointKind = 'url' | 'collect';

/** A webhook endpoint: its type patterns as a list, `disabled` a boolean. */
export interface WebhookEndpointEntity {
  id: string;
  group_id: string;
  kind: WebhookEndpointKind;
  /** '' for a collector. */
  url: string;
  description: string | null;
  /** Exact types, `family.*` wildcards or `*`. */
  enabled_events: string[];
  disabled: boolean;
  /** The signing secret (`whsec_…`). */
  secret: string;
  created_at: string;
  updated_at: string;
}

/** A delivery as a sender picked it: which attempt it is about to make. */
export interface DeliveryVersion {
  id: number;
  /** Attempts made so far: the claim holds only while the delivery has made no other. */
  attempts: number;
}

/** One attempt to deliver an event to an endpoint. */
export interface WebhookAttemptEntity {
  id: string;
  group_id: string;
  endpoint_id: string;
  delivery_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'succeeded' | 'failed' | 'held';
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  latency_ms: number;
  scheduled_at: string;
  next_attempt_at: string | null;
  created_at: string;
  /** The fault a sandbox's rule injected into this attempt (docs/faults.md), or null. */
  fault: string | null;
}

/** A cursor page: newest first, only ids below `before`. */
export interface CursorPage {
  limit: number;
  before?: string | undefined;
}

export interface WebhookEndpointStore {
  insert(tx: Tx, e: WebhookEndpointEntity): Promise<RunResult>;
  find(ex: Executor, groupId: string, id: string): Promise<WebhookEndpointEntity | undefined>;
  /** Newest first. */
  list(ex: Executor, groupId: string, page: CursorPage): Promise<WebhookEndpointEntity[]>;
  count(ex: Executor, groupId: string): Promise<number>;
  update(tx: Tx, e: WebhookEndpointEntity): Promise<RunResult>;
  /** The endpoint, its deliveries, its attempts and (a collector) its inbox messages; how many endpoints went (0 or 1). */
  delete(tx: Tx, groupId: string, id: string): Promise<number>;
  /** The groups that have an enabled endpoint. */
  activeGroups(ex: Executor): Promise<string[]>;
  /** The enabled endpoints of a group, with what each takes. */
  enabled(ex: Executor, groupId: string): Promise<Pick<WebhookEndpointEntity, 'id' | 'enabled_events'>[]>;
}

export interface WebhookDeliveryStore {
  /**
   * Claim `picked` for `owner` until `leaseUntil` (real ms), with the write's other work
   * (no statement of its own): compare-and-set on a free lease, the attempt count read
   * and a due time by `until`, so of two senders only one gets each delivery's attempt.
   * The write fails with `lost()` unless every one was claimed (then `claimSome`).
   */
  claim(tx: Tx, picked: readonly DeliveryVersion[], owner: string, leaseUntil: number, realNow: number, until: string, lost: () => unknown, firstNow?: boolean): void;
  /** The same claim, now, of whichever of `picked` are still free: the ids this sender got. */
  claimSome(tx: Tx, picked: readonly DeliveryVersion[], owner: string, leaseUntil: number, realNow: number, until: string, firstNow?: boolean): Promise<number[]>;
  /**
   * After a pass's attempts, with the write's other work: `ok` succeeded, each of
   * `failed` is due again at `next` (or failed for good when null). The write fails with
   * `lost()` unless `owner` still held every one (then `succeeded` and `failed`).
   */
  settle(tx: Tx, owner: string, ok: readonly number[], failed: ReadonlyArray<{ id: number; next: string | null }>, lost: () => unknown): void;
  /** Deliveries that succeeded, among those `owner` still holds. */
  succeeded(tx: Tx, ids: readonly number[], owner: string): Promise<RunResult>;
  /** A failed attempt: the next one due at `next`, or the delivery failed (next null); if `owner` still holds it. */
  failed(tx: Tx, id: number, owner: string, next: string | null): Promise<RunResult>;
  /** An attempt a fault held back: nothing sent, no attempt counted; due again at `next`. */
  hold(tx: Tx, id: number, owner: string, next: string): Promise<RunResult>;
  /** Mark a delivery held back by a fault, so no attempt of it is held again (on any server). */
  markHeld(tx: Tx, id: number): Promise<RunResult>;
  /** A new delivery of an event to an endpoint (a resend), due at `at`. */
  insert(tx: Tx, groupId: string, endpointId: string, eventId: string, at: string): Promise<RunResult>;
  /** Every pending delivery of a group due again at `at` (its clock changed between real time and its own: docs/clock.md). */
  rescheduleGroup(tx: Tx, groupId: string, at: string): Promise<RunResult>;
  /** Deliveries not yet delivered nor failed for good, of every group (metrics). */
  countPending(ex: Executor): Promise<number>;
}

export interface WebhookAttemptStore {
  /** Inside a write: sent with the write's other rows. */
  insert(tx: Tx, a: WebhookAttemptEntity): void;
  /** An endpoint's attempts, newest first. */
  list(ex: Executor, groupId: string, endpointId: string, page: CursorPage): Promise<WebhookAttemptEntity[]>;
  /** Which of these attempt ids are stored (a record whose COMMIT went unanswered may have been saved). */
  recorded(ex: Executor, endpointId: string, ids: readonly string[]): Promise<string[]>;
}

/** A delivery to a collector, as it would have been sent: the body's exact text and its Standard Webhooks headers. */
export interface InboxMessageEntity {
  id: string;
  group_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  webhook_id: string;
  webhook_timestamp: string;
  webhook_signature: string;
  /** Group time when it was collected. */
  received_at: string;
}

export interface WebhookInboxStore {
  /** Inside a write: sent with the write's other rows (the attempt it is). */
  insert(tx: Tx, m: InboxMessageEntity): void;
  /** A group's messages, newest first: of these exact types or type prefixes (none: every type), ids below `before`. */
  list(ex: Executor, groupId: string, f: { types?: readonly string[]; prefixes?: readonly string[]; before?: string | undefined; limit: number }): Promise<InboxMessageEntity[]>;
}

/**
 * A due delivery with what a sender needs to send it: the delivery (which attempt), its
 * event and the endpoint's URL and signing secrets. `data` is the event's
 * `{ object, previous_attributes? }` as JSON text, exactly as the event log answers it:
 * the webhook body is that text in its envelope, so a store hands it over as stored (on
 * PostgreSQL, a jsonb column read as text) rather than parsing it for the sender to
 * serialize again — the delivery's CPU is what it saves.
 */
export interface WebhookSend {
  delivery_id: number;
  endpoint_id: string;
  /** Attempts made so far. */
  attempts: number;
  /** When this attempt fell due (group time). */
  next_attempt_at: string;
  /** 1 once a fault held the delivery back (delay, reorder): it is not held again. */
  held_once: number;
  event_id: string;
  type: string;
  created_at: string;
  group_id: string;
  request_id: string | null;
  idempotency_key: string | null;
  data: string;
  /** `collect`: the attempt is stored in the group's inbox instead of POSTed. */
  kind: WebhookEndpointKind;
  url: string;
  secret: string;
  previous_secret: string | null;
  /** Group time until which the previous secret also signs. */
  previous_secret_expires_at: string | null;
}

export interface WebhookSendStore {
  /**
   * Pending deliveries of `scope` due by `until` (group time) whose lease is free at
   * `realNow`, to an enabled endpoint not in `skip` (default none: the sender's endpoints
   * whose queue is full), oldest due first, each with its event and endpoint: one read
   * for a pass (what to claim and what to send).
   */
  /** `firstNow`: first attempts are due whatever their time (groups whose deliveries keep real time, not their clock's: docs/clock.md). */
  due(ex: Executor, scope: GroupScope, until: string, realNow: number, limit: number, skip?: readonly string[], firstNow?: boolean): Promise<WebhookSend[]>;
  /** Keep `secret` (just replaced) signing until `until` (group time). */
  retireSecret(tx: Tx, groupId: string, endpointId: string, secret: string, until: string): Promise<RunResult>;
}
