// Events and webhooks (`/dashboard/groups/{id}/events`): the group's events, newest first,
// each with its deliveries' attempts (endpoint, status, latency, the start of the answer,
// the next retry) and "resend"; the endpoints with their recent success rate and fault
// rules. Live: a Server-Sent Events stream says "new events" (at most twice a second) and
// the page's script has htmx reload the rows, unless the reader paused it.
import { listEvents, watchEvents } from '../../../services/events/events.js';
import { listWebhookAttempts, listWebhookEndpoints, resendEvent } from '../../../services/webhooks/endpoints.js';
import { listWebhookFaultRules } from '../../../services/faults/webhook-rules.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import type { Event } from '../../../domain/events.js';
import type { WebhookAttempt, WebhookEndpoint } from '../../../domain/webhooks.js';
import { enc, html, queryString, type Html } from '../html.js';
import { csrfField, when } from '../layout.js';
import { Page, Redirect, type Answer } from '../respond.js';
import { liveNotices } from '../live.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, type GroupScope } from '../scope.js';
import { groupPage } from './group-page.js';
import { eventObjectId, objectHref } from './object-links.js';
import { backTo } from './clock.js';
import { FINDERS } from './find.js';

/** Attempts read per endpoint for the success rate and the events' deliveries. */
const RECENT_ATTEMPTS = 200;

interface EndpointFacts {
  endpoint: WebhookEndpoint;
  attempts: WebhookAttempt[];
  faults: number;
}

async function endpointsOf(s: GroupScope): Promise<EndpointFacts[]> {
  const list = await executeRaw(listWebhookEndpoints, s.g, s.ctx, { limit: '100' });
  return Promise.all(
    list.data.items.map(async (endpoint) => ({
      endpoint,
      attempts: (await executeRaw(listWebhookAttempts, s.g, s.ctx, { endpoint_id: endpoint.id, limit: String(RECENT_ATTEMPTS) })).data.items,
      faults: (await execute(listWebhookFaultRules, s.g, s.ctx, { group_id: s.head.id, endpoint_id: endpoint.id })).data.length,
    })),
  );
}

function attemptList(attempts: WebhookAttempt[], urls: Map<string, string>): Html {
  if (attempts.length === 0) return html`<span class="muted">no delivery</span>`;
  return html`<ul class="attempts">${attempts.map(
    (a) => html`<li><span class="status-${a.status}">${a.status}</span> #${a.attempt} → ${urls.get(a.endpoint_id) ?? a.endpoint_id}: ${a.response_status ?? 'no answer'}, ${a.latency_ms} ms${a.response_body ? html` — <q>${a.response_body.slice(0, 80)}</q>` : ''}${a.error ? html` (${a.error})` : ''}${a.next_attempt_at ? html`; next retry ${when(a.next_attempt_at)}` : ''}${a.fault ? html` <span class="tag">fault: ${a.fault}</span>` : ''}</li>`,
  )}</ul>`;
}

async function rowsHtml(c: ViewContext, s: GroupScope): Promise<{ rows: Html; events: Event[]; endpoints: EndpointFacts[]; hasMore: boolean }> {
  const after = c.url.searchParams.get('starting_after') ?? undefined;
  const [list, endpoints] = await Promise.all([executeRaw(listEvents, s.g, s.ctx, { limit: '50', ...(after ? { starting_after: after } : {}) }), endpointsOf(s)]);
  const urls = new Map(endpoints.map((e) => [e.endpoint.id, e.endpoint.url]));
  const byEvent = new Map<string, WebhookAttempt[]>();
  for (const e of endpoints) for (const a of e.attempts) byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a]);
  const base = `/dashboard/groups/${enc(s.head.id)}`;
  const rows = list.data.items.map((e) => {
    const of = eventObjectId(e);
    const family = e.type.slice(0, e.type.indexOf('.'));
    return html`<tr data-event-type="${e.type}"><td><time datetime="${e.created_at}">${when(e.created_at)}</time></td>
<td><a href="${objectHref(s.head.id, 'event', e.id)}">${e.type}</a></td>
<td>${of && FINDERS[family] ? html`<a href="${objectHref(s.head.id, family, of)}"><code class="id">${of}</code></a>` : html`<code class="id">${of ?? ''}</code>`}</td>
<td>${attemptList(byEvent.get(e.id) ?? [], urls)}</td>
<td><form method="post" action="${base}/events/${enc(e.id)}/resend" class="inline">${csrfField(c.session)}<button type="submit" class="secondary" aria-label="Resend ${e.type} ${e.id}">Resend</button></form></td></tr>`;
  });
  return { rows: html`${rows}`, events: list.data.items, endpoints, hasMore: list.data.has_more };
}

const table = (rows: Html) =>
  html`<table><caption>Events, newest first</caption><thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Object</th><th scope="col">Deliveries and attempts</th><th scope="col">Resend</th></tr></thead><tbody>${rows}</tbody></table>`;

function endpointTable(endpoints: EndpointFacts[]): Html {
  if (endpoints.length === 0) return html`<p class="empty">No webhook endpoint: add one with payctl webhook create or the API.</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Webhook endpoints"><table><caption>Webhook endpoints</caption><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Recent success</th><th scope="col">Fault rules</th></tr></thead><tbody>${endpoints.map((e) => {
    const done = e.attempts.filter((a) => a.status !== 'held');
    const ok = done.filter((a) => a.status === 'succeeded').length;
    const rate = done.length === 0 ? '—' : `${Math.round((100 * ok) / done.length)} % of ${done.length}`;
    return html`<tr><td>${e.endpoint.url}${e.endpoint.disabled ? html` <span class="tag">disabled</span>` : ''}</td><td>${e.endpoint.enabled_events.join(', ')}</td><td>${rate}</td><td>${e.faults}</td></tr>`;
  })}</tbody></table></div>`;
}

export async function eventsPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const { rows, events, endpoints, hasMore } = await rowsHtml(c, s);
  const base = `/dashboard/groups/${enc(s.head.id)}/events`;
  const last = events[events.length - 1];
  const paged = c.url.searchParams.has('starting_after');
  const body = html`<section aria-labelledby="endpoints-title"><h2 id="endpoints-title">Endpoints</h2>${endpointTable(endpoints)}</section>
<section aria-labelledby="events-title"><h2 id="events-title">Events</h2>
${paged ? '' : html`<p class="live-bar"><span data-live-state role="status">Live: new events appear here.</span> <button type="button" data-pause class="secondary" aria-pressed="false">Pause</button></p>`}
<div id="event-rows" class="table-wrap" tabindex="0" role="region" aria-label="Events" ${paged ? '' : html`data-live-url="${base}/live" hx-get="${base}/rows" hx-trigger="payctl:events from:body" hx-swap="innerHTML"`}>${table(rows)}</div>
<nav class="pager" aria-label="Pages">${paged ? html`<a href="${base}">Newest</a>` : ''}${hasMore && last ? html` <a href="${base}${queryString({ starting_after: last.id })}" rel="next">Older</a>` : ''}</nav></section>`;
  return groupPage(c, s, 'events', 'Events & webhooks', body);
}

/** GET …/events/rows: the table alone, for the live refresh. */
export async function eventRows(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  return new Page(table((await rowsHtml(c, s)).rows));
}

/** GET …/events/live: an SSE stream of "events" notices while the page is open. */
export async function eventsLive(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  return liveNotices(await execute(watchEvents, s.g, s.ctx, {}));
}

export async function resendAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  await executeRaw(resendEvent, s.g, s.ctx, { event_id: pathId(c, 'event_id') });
  return new Redirect(backTo(c, `/dashboard/groups/${enc(s.head.id)}/events`));
}
