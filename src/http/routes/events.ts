import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { PERMISSIONS } from '../../domain/permissions.js';
import { eventListQuerySchema, eventListSchema, eventSchema } from '../../domain/events.js';
import { getEvent, listEvents } from '../../services/events/events.js';

// Any key of the group may ask; it reads the events whose objects it may view (all of
// them with manage_webhooks).
const anyKey = keyAuth(...PERMISSIONS);

export const eventRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/v1/groups/:group_id/events',
    summary: 'List events, newest first',
    description:
      'The events of the group that the key may read: all with manage_webhooks, otherwise those whose object its permissions view. `types` takes exact types and wildcards like `transaction.*`, comma separated; page with `starting_after` (the last id of a page).',
    tag: 'Events',
    extension: true,
    auth: anyKey,
    query: eventListQuerySchema,
    response: eventListSchema,
    handler: (c) => listEvents(c.groupCtx, c.key!.permissions, c.query),
  },
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/events/:event_id',
    summary: 'Get an event',
    tag: 'Events',
    extension: true,
    auth: anyKey,
    response: eventSchema,
    handler: (c) => getEvent(c.groupCtx, c.key!.permissions, c.params.event_id),
  }),
];
