// An object's page: the object as the API answers it (with a card number, key or secret a
// client put in a free field — an order_id, a name — masked as the journal masks it), its history (the events about it,
// newest first), links to the objects it names and, for an event, its object and a
// resend. The requests that touched it come from the request journal (touching.ts).
import { AppError } from '../../../errors.js';
import { listEvents } from '../../../services/events/events.js';
import { executeRaw } from '../../../services/use-case.js';
import { PAGE_LIMIT_MAX } from '../../../domain/paging.js';
import type { Event } from '../../../domain/events.js';
import { redact } from '../../../domain/sensitive.js';
import { enc, html, jsonBlock, type Html } from '../html.js';
import { csrfField, tableWrap, when } from '../layout.js';
import type { Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, type GroupScope } from '../scope.js';
import { requestsTouching } from './touching.js';
import { groupPage } from './group-page.js';
import { FINDERS, KIND_LABELS } from './find.js';
import { eventObjectId, objectHref, relatedOf } from './object-links.js';

/** Event pages read when gathering an object's history (the newest events of the group). */
const HISTORY_PAGES = 3;

/** The events whose object is `id`, newest first, from the group's newest events. */
export async function historyOf(s: GroupScope, id: string): Promise<Event[]> {
  const found: Event[] = [];
  let after: string | undefined;
  for (let page = 0; page < HISTORY_PAGES; page++) {
    const list = await executeRaw(listEvents, s.g, s.ctx, { limit: String(PAGE_LIMIT_MAX), ...(after ? { starting_after: after } : {}) });
    for (const e of list.data.items) if (eventObjectId(e) === id) found.push(e);
    if (!list.data.has_more || list.data.items.length === 0) break;
    after = list.data.items[list.data.items.length - 1]!.id;
  }
  return found;
}

export function eventTable(s: GroupScope, events: Event[], caption: string): Html {
  const rows = events.map(
    (e) => html`<tr><td><time datetime="${e.created_at}">${when(e.created_at)}</time></td><td><a href="${objectHref(s.head.id, 'event', e.id)}">${e.type}</a></td><td><code class="id">${e.id}</code></td></tr>`,
  );
  return tableWrap(caption, ['Time', 'Type', 'Event id'], rows, 'No events about it.');
}

export async function objectPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const kind = pathId(c, 'kind');
  const id = pathId(c, 'object_id');
  const find = FINDERS[kind];
  if (!find) throw new AppError(404, 'not_found', `no object kind ${kind}`);
  const object = await find(s, id);
  if (object === undefined) throw new AppError(404, 'not_found', `${KIND_LABELS[kind]} ${id} is not an object of this group`);
  const related = relatedOf(object, id);
  let extra: Html = html``;
  if (kind === 'event') {
    const e = object as Event;
    const of = eventObjectId(e);
    const family = e.type.slice(0, e.type.indexOf('.'));
    if (of && FINDERS[family] && !related.some(([k, r]) => k === family && r === of)) related.unshift([family, of]);
    extra = html`<form method="post" action="/dashboard/groups/${enc(s.head.id)}/events/${enc(e.id)}/resend" class="inline">${csrfField(c.session)}<button type="submit">Resend to its endpoints</button></form>`;
  }
  const history = kind === 'event' ? html`` : html`<section aria-labelledby="history"><h2 id="history">History</h2>${eventTable(s, await historyOf(s, id), 'Events about it')}</section>`;
  const requests = await requestsTouching(s, id);
  const body = html`<p><code class="id">${id}</code></p>${extra}
${related.length ? html`<section aria-labelledby="related"><h2 id="related">Related</h2><ul class="related">${related.map(([k, rid]) => html`<li>${KIND_LABELS[k] ?? k}: <a href="${objectHref(s.head.id, k, rid)}"><code class="id">${rid}</code></a></li>`)}</ul></section>` : ''}
${history}
${requests ?? ''}
<section aria-labelledby="as-api"><h2 id="as-api">As the API answers it</h2>${jsonBlock(redact(object))}</section>`;
  return groupPage(c, s, undefined, `${KIND_LABELS[kind]}`, body);
}
