// Human output of events: one row per event (events list, trigger) and one line per
// streamed event (listen).
import { objectId, type Event } from '../domain/events.js';
import { dateTime } from './format.js';
import type { Column } from './table.js';

/** The id and type matter most; then when; the object and the request it came from show when there is room. */
export const EVENT_COLUMNS: Column[] = [
  { title: 'created', priority: 3 },
  { title: 'type', priority: 4 },
  { title: 'id', priority: 5 },
  { title: 'object', priority: 2 },
  { title: 'request', priority: 1 },
];

export function eventRows(events: readonly Event[]): string[][] {
  return events.map((e) => [dateTime(e.created_at), e.type, e.id, objectId(e), e.request ? e.request.id : 'clock']);
}
