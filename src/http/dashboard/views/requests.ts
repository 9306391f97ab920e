// Requests (`/dashboard/groups/{id}/requests`): the group's request journal
// (docs/journal.md) as a table, newest first, with the journal's own filters (status class,
// method, path) and pages. Live as the events page is: a Server-Sent Events stream says
// "new calls" (at most twice a second) and the page's script has htmx reload the rows,
// unless the reader paused it. A page (and each live refresh) reads what it shows and no
// more: the journal's list, newest first, one page of the matching calls (and one more, to
// know there is an older page), from the call after the page's `before` cursor.
import { listRequests, watchRequests } from '../../../services/journal/list.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { AppError } from '../../../errors.js';
import { JOURNAL_MAX_ENTRIES, type JournalItem } from '../../../domain/journal.js';
import { enc, html, queryString, type Html } from '../html.js';
import { when } from '../layout.js';
import { Page, type Answer } from '../respond.js';
import { liveNotices } from '../live.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, type GroupScope } from '../scope.js';
import { groupPage } from './group-page.js';

/** Rows a page shows. */
const PAGE_ROWS = 50;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];

export const requestHref = (groupId: string, requestId: string) => `/dashboard/groups/${enc(groupId)}/requests/${enc(requestId)}`;

/** The journal's calls matching `filters`, newest first (all of them, at most 1,000 with their bodies: the object page's "requests that touched it"). */
export async function journalOf(s: GroupScope, filters: Record<string, string> = {}): Promise<JournalItem[]> {
  const page = await executeRaw(listRequests, s.g, s.ctx, { group_id: s.head.id, limit: String(JOURNAL_MAX_ENTRIES), ...filters });
  return page.data.items.reverse();
}

/** The filters the page's form sent (empty ones left out). */
function filtersOf(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['status', 'method', 'path']) {
    const v = url.searchParams.get(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

interface Rows {
  rows: Html;
  /** The page's `before` was no call of the journal: the newest are shown instead. */
  gone: boolean;
  items: JournalItem[];
  older: string | undefined;
}

/** One page of the journal, newest first, from the call after `before` (none: the newest). */
const pageOf = (s: GroupScope, filters: Record<string, string>, before: string | undefined) =>
  executeRaw(listRequests, s.g, s.ctx, { group_id: s.head.id, ...filters, newest_first: true, limit: String(PAGE_ROWS), ...(before ? { starting_after: before } : {}) });

async function rowsOf(c: ViewContext, s: GroupScope): Promise<Rows> {
  const before = c.url.searchParams.get('before') ?? undefined;
  let page: Awaited<ReturnType<typeof pageOf>>;
  let gone = false;
  try {
    page = await pageOf(s, filtersOf(c.url), before);
  } catch (err) {
    // The page's start is no call of the journal (dropped by its bound since, or never one): the newest page, saying so.
    if (!before || !(err instanceof AppError) || !err.fields?.some((f) => f.path === 'starting_after')) throw err;
    page = await pageOf(s, filtersOf(c.url), undefined);
    gone = true;
  }
  const items = page.data.items;
  const rows = items.map(
    (r) => html`<tr data-request-id="${r.id}"><td><time datetime="${r.at}">${when(r.at)}</time></td><td>${r.method}</td>
<td><a href="${requestHref(s.head.id, r.id)}"><code class="path">${r.path}</code></a></td>
<td><span class="status-${Math.floor(r.status / 100)}xx">${r.status}</span></td><td>${r.duration_ms} ms</td>
<td>${r.fault ? html`<span class="tag">${r.fault}</span>` : ''}</td><td>${r.idempotency_key ? html`<code>${r.idempotency_key}</code>` : ''}</td></tr>`,
  );
  return { rows: html`${rows}`, gone, items, older: page.data.has_more ? items[items.length - 1]?.id : undefined };
}

const table = (rows: Html) =>
  html`<table><caption>Requests, newest first</caption><thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Latency</th><th scope="col">Fault</th><th scope="col">Idempotency-Key</th></tr></thead><tbody>${rows}</tbody></table>`;

function filterForm(base: string, f: Record<string, string>): Html {
  const option = (v: string, chosen: string | undefined, label = v) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="${base}" class="filters" aria-label="Filters">
<label>Status <select name="status">${option('', f.status, 'any')}${STATUS_CLASSES.map((v) => option(v, f.status))}</select></label>
<label>Method <select name="method">${option('', f.method, 'any')}${METHODS.map((v) => option(v, f.method))}</select></label>
<label>Path (a trailing * matches a prefix) <input name="path" maxlength="2048" value="${f.path ?? ''}"></label>
<button type="submit">Filter</button></form>`;
}

export async function requestsPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const { rows, gone, items, older } = await rowsOf(c, s);
  const f = filtersOf(c.url);
  const base = `/dashboard/groups/${enc(s.head.id)}/requests`;
  const paged = c.url.searchParams.has('before');
  const body = html`${filterForm(base, f)}
${gone ? html`<p class="error" role="alert">That page began at a call the journal no longer holds (it keeps a group's last ${JOURNAL_MAX_ENTRIES} calls): the newest calls are shown.</p>` : ''}
${paged ? '' : html`<p class="live-bar"><span data-live-state role="status">Live: new requests appear here.</span> <button type="button" data-pause class="secondary" aria-pressed="false">Pause</button></p>`}
<div id="request-rows" class="table-wrap" tabindex="0" role="region" aria-label="Requests" ${paged ? '' : html`data-live-url="${base}/live" hx-get="${base}/rows${queryString(f)}" hx-trigger="payctl:events from:body" hx-swap="innerHTML"`}>${table(rows)}</div>
${items.length === 0 ? html`<p class="empty">No request in the journal${Object.keys(f).length ? ' matches these filters' : ' yet'}.</p>` : ''}
<nav class="pager" aria-label="Pages">${paged ? html`<a href="${base}${queryString(f)}">Newest</a>` : ''}${older ? html` <a href="${base}${queryString({ ...f, before: older })}" rel="next">Older</a>` : ''}</nav>`;
  return groupPage(c, s, 'requests', 'Requests', body);
}

/** GET …/requests/rows: the table alone, for the live refresh. */
export async function requestRows(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  return new Page(table((await rowsOf(c, s)).rows));
}

/** GET …/requests/live: an SSE stream of notices while the page is open (the events page's script reads them). */
export async function requestsLive(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  return liveNotices(await execute(watchRequests, s.g, s.ctx, { group_id: s.head.id }));
}
