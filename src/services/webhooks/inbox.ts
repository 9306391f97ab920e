// The inbox of a group's collect endpoints (docs/testing.md, "The webhook inbox"): every
// delivery they kept, newest first, each as a receiver would have got it — the raw body
// and the Standard Webhooks headers — so a test in any language checks the signature with
// its own library. With `wait`, the answer comes once `count` messages exist (long-poll.ts),
// woken when the sender records attempts.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import type { InboxMessageEntity } from '../../store/interfaces/webhooks.js';
import { inboxQuerySchema, type InboxList, type InboxMessage } from '../../domain/webhooks.js';
import { waitPlan } from '../../domain/waiting.js';
import { notFound } from '../../errors.js';
import { useCase } from '../use-case.js';
import { longPoll } from '../long-poll.js';
import { onAttemptsRecorded } from './recorded.js';

export function toInboxMessage(m: InboxMessageEntity): InboxMessage {
  return {
    id: m.id,
    endpoint_id: m.endpoint_id,
    event_id: m.event_id,
    event_type: m.event_type,
    received_at: m.received_at,
    headers: {
      'content-type': 'application/json',
      'webhook-id': m.webhook_id,
      'webhook-timestamp': m.webhook_timestamp,
      'webhook-signature': m.webhook_signature,
    },
    body: m.body,
  };
}

/** GET /api/v1/sandboxes/{group_id}/inbox (the admin token, or a manage_webhooks key of the group). */
export const listInbox = useCase({
  input: inboxQuerySchema.extend({ group_id: z.string() }),
  async run(p: Platform, ctx: RequestContext, q, io): Promise<InboxList> {
    const { waitMs, count } = waitPlan(q);
    const groupId = q.group_id;
    if (!(await ctx.store.repos.groups.find(ctx.store, groupId))) throw notFound('group');
    const patterns = q.types ?? ['*'];
    const filter = patterns.includes('*')
      ? {}
      : { types: patterns.filter((x) => !x.endsWith('.*')), prefixes: patterns.filter((x) => x.endsWith('.*')).map((x) => x.slice(0, -1)) };
    return longPoll({
      waitMs,
      count,
      signal: io.signal,
      read: async () => {
        const rows = await ctx.store.repos.webhookInbox.list(ctx.store, groupId, { ...filter, before: q.starting_after, limit: q.limit + 1 });
        return { data: { items: rows.slice(0, q.limit).map(toInboxMessage), has_more: rows.length > q.limit } };
      },
      size: (page) => page.data.items.length,
      wake: (notify) => onAttemptsRecorded(groupId, notify),
      share: { store: ctx.store, key: ['inbox', groupId, patterns, q.starting_after, q.limit] },
    });
  },
});
