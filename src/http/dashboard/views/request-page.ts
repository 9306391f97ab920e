// One request's page (`/dashboard/groups/{id}/requests/{request_id}`): the call as the
// journal kept it (its bodies and headers, redacted when kept: docs/journal.md), the events
// it caused (those whose `request.id` is its id), the objects its answer names (links) and
// "copy as curl" with the key as a placeholder, and "send again" (./send-again.ts: in
// process, acting for the group, since the dashboard never holds nor shows a key).
import { AppError } from '../../../errors.js';
import { listEvents } from '../../../services/events/events.js';
import { getRequest } from '../../../services/journal/list.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { PAGE_LIMIT_MAX } from '../../../domain/paging.js';
import type { Event } from '../../../domain/events.js';
import type { JournalItem } from '../../../domain/journal.js';
import { enc, html, jsonBlock, queryString, type Html } from '../html.js';
import { when } from '../layout.js';
import type { Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, orMissing, type GroupScope } from '../scope.js';
import { groupPage } from './group-page.js';
import { eventTable } from './object-page.js';
import { KIND_LABELS } from './find.js';
import { objectHref, relatedOf } from './object-links.js';
import { sendAgainSection } from './send-again.js';

/** Event pages read for the events a call caused (the group's newest events). */
const EVENT_PAGES = 3;

/** The events whose `request.id` is `requestId`, newest first. */
async function eventsCausedBy(s: GroupScope, requestId: string): Promise<Event[]> {
  const found: Event[] = [];
  let after: string | undefined;
  for (let page = 0; page < EVENT_PAGES; page++) {
    const list = await executeRaw(listEvents, s.g, s.ctx, { limit: String(PAGE_LIMIT_MAX), ...(after ? { starting_after: after } : {}) });
    for (const e of list.data.items) if (e.request?.id === requestId) found.push(e);
    if (!list.data.has_more || list.data.items.length === 0) break;
    after = list.data.items[list.data.items.length - 1]!.id;
  }
  return found;
}

/** A shell word in single quotes (a quote inside closes, escapes and reopens). */
const shellWord = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The call as a curl command; the key is the placeholder $PAYCTL_KEY, never a real one. */
export function curlOf(baseUrl: string, r: JournalItem, headers: Record<string, string>): string {
  const lines = [`curl -X ${r.method} ${shellWord(baseUrl + r.path)}`, `  -H "Authorization: $PAYCTL_KEY"`];
  for (const [k, v] of Object.entries(headers)) lines.push(`  -H ${shellWord(`${k}: ${v}`)}`);
  if (r.body !== null) lines.push(`  -H 'Content-Type: application/json'`, `  --data ${shellWord(JSON.stringify(r.body))}`);
  return lines.join(' \\\n');
}

/** The objects the answer names: its own id (opened by search: its kind is not said) and the ids of its fields. */
function objectsOf(s: GroupScope, r: JournalItem): Html {
  const answer = r.answer as { id?: unknown } | null;
  const own = answer && typeof answer.id === 'string' ? answer.id : undefined;
  const related = relatedOf(answer, own ?? '');
  if (!own && related.length === 0) return html`<p class="empty">Its answer names no object.</p>`;
  return html`<ul class="related">${own ? html`<li>Its answer: <a href="/dashboard/search${queryString({ q: own, group: s.head.id })}"><code class="id">${own}</code></a></li>` : ''}${related.map(
    ([k, id]) => html`<li>${KIND_LABELS[k] ?? k}: <a href="${objectHref(s.head.id, k, id)}"><code class="id">${id}</code></a></li>`,
  )}</ul>`;
}

export async function requestPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const id = pathId(c, 'request_id');
  const r = await orMissing(execute(getRequest, s.g, s.ctx, { group_id: s.head.id, request_id: id }));
  if (!r) throw new AppError(404, 'not_found', `request ${id} is not in this group's journal (unknown, or dropped: the journal keeps the last 1,000 calls)`);
  const events = await eventsCausedBy(s, id);
  const body = html`<p><code class="id">${r.id}</code> · <a href="/dashboard/groups/${enc(s.head.id)}/requests">All requests</a></p>
<dl class="facts"><dt>Time</dt><dd><time datetime="${r.at}">${when(r.at)}</time></dd><dt>Call</dt><dd>${r.method} <code class="path">${r.path}</code></dd>
<dt>Status</dt><dd>${r.status}</dd><dt>Latency</dt><dd>${r.duration_ms} ms</dd>${r.fault ? html`<dt>Fault</dt><dd>${r.fault}</dd>` : ''}${r.note ? html`<dt>Note</dt><dd>${r.note}</dd>` : ''}</dl>
<section aria-labelledby="headers"><h2 id="headers">Headers kept</h2><dl class="facts"><dt>Authorization</dt><dd>never kept</dd>${Object.entries(r.headers).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}${r.fault ? html`<dt>Payctl-Fault (answer)</dt><dd>${r.fault}</dd>` : ''}</dl></section>
<section aria-labelledby="request-body"><h2 id="request-body">Request body</h2>${r.body === null ? html`<p class="empty">No body kept.</p>` : jsonBlock(r.body)}</section>
<section aria-labelledby="answer-body"><h2 id="answer-body">Answer</h2>${r.answer === null ? html`<p class="empty">No answer body kept.</p>` : jsonBlock(r.answer)}</section>
<section aria-labelledby="events-caused"><h2 id="events-caused">Events it caused</h2>${eventTable(s, events, 'Events it caused')}</section>
<section aria-labelledby="objects"><h2 id="objects">Objects it made or changed</h2>${objectsOf(s, r)}</section>
${sendAgainSection(c, s.head.id, r)}
<section aria-labelledby="curl"><h2 id="curl">Copy as curl</h2><p>Set <code>PAYCTL_KEY</code> to a key of this group first (the dashboard never shows one).</p><pre class="json curl" tabindex="0">${curlOf(c.p.publicUrl, r, r.headers)}</pre></section>`;
  return groupPage(c, s, 'requests', `${r.method} request`, body);
}
