import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { PERMISSIONS } from '../../domain/permissions.js';
import { eventListSchema, eventSchema, eventStreamQuerySchema, streamReadySchema } from '../../domain/events.js';
import { getEvent, listEvents } from '../../services/events/events.js';
import { openEventStream } from '../../services/events/stream.js';
import { STREAM_HEARTBEAT_MS, streamEvents } from '../sse.js';
import { StreamResponse } from '../route.js';
import { execute, executeRaw, withParams } from '../../services/use-case.js';

// Any key of the group may ask; it reads the events whose objects it may view (all of
// them with manage_webhooks).
const anyKey = keyAuth(...PERMISSIONS);

export const eventRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/v1/groups/:group_id/events',
    summary: 'List events, newest first',
    description:
      'The events of the group that the key may read: all with manage_webhooks, otherwise those whose object its permissions view. `types` takes exact types and wildcards like `transaction.*`, comma separated; page with `starting_after` (the last id of a page). `wait` (e.g. `5s`, at most 30 s) answers as soon as at least `count` (default 1) matching events exist, else at the deadline with what there is (200): `?types=transaction.settled&wait=5s` waits for a settlement without polling.',
    tag: 'Events',
    extension: true,
    auth: anyKey,
    query: listEvents.input,
    response: eventListSchema,
    handler: (c) => executeRaw(listEvents, c.platform, c.groupCtx, c.query, { signal: c.signal }),
  },
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/events/stream',
    summary: 'Stream events live (Server-Sent Events)',
    description: [
      "The group's events as they are committed, oldest first, as a `text/event-stream` that stays open. Each event is one message: `id:` its position in the log, `event:` its type, `data:` the event object (as the get operation answers it).",
      'The first message is `event: ready` with the position the stream starts after; comment lines (`:`) are heartbeats, every ' +
        `${STREAM_HEARTBEAT_MS / 1000} s. Without Last-Event-ID the stream starts at the log's end (only new events); a client that reconnects with the Last-Event-ID it last received (EventSource clients do) gets every event committed meanwhile, nothing twice. Events written by any process on the database are streamed.`,
    ].join('\n\n'),
    tag: 'Events',
    extension: true,
    auth: keyAuth('manage_webhooks'),
    query: eventStreamQuerySchema,
    produces: 'text/event-stream',
    successDescription: 'The stream (it ends when the client disconnects or the server shuts down)',
    requestHeaders: {
      'Last-Event-ID': 'Resume after this position: the `id:` of the last message received (an event id is accepted too).',
    },
    stream: {
      description: 'Messages: `ready` (first), then one per event, `event:` being its type.',
      example: [
        'retry: 1000',
        '',
        'id: 41',
        'event: ready',
        'data: {"last_event_id":"41","types":["*"]}',
        '',
        'id: 42',
        'event: transaction.approved',
        'data: {"id":"01a207a6-41ad-721c-b4f0-014a51c53eb3","type":"transaction.approved","created_at":"2026-11-23T09:04:26.029Z","group_id":"01a207a6-40ef-716b-b391-e443e0c965fc","data":{"object":{"id":"01a207a6-41ad-7aaa-9c2e-4f1f1bb0a5a1","status":"pending"}},"request":{"id":"01a207a6-41a9-7bbb-8e3d-2a5c6d7e8f90","idempotency_key":null}}',
        '',
        ':',
        '',
      ].join('\n'),
      messages: { ready: streamReadySchema, event: eventSchema },
    },
    handler: async (c) => {
      const header = c.headers['last-event-id'];
      const plan = await executeRaw(openEventStream, c.platform, c.groupCtx, withParams(c.query, typeof header === 'string' ? { 'Last-Event-ID': header } : {}));
      return new StreamResponse((io) => streamEvents(c.groupCtx, plan, io));
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/events/:event_id',
    summary: 'Get an event',
    tag: 'Events',
    extension: true,
    auth: anyKey,
    response: eventSchema,
    handler: (c) => execute(getEvent, c.platform, c.groupCtx, { event_id: c.params.event_id }),
  }),
];
