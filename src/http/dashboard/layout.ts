// The page shell every view shares: the header with the search box ("Search by id") and
// the group's navigation, the clock panel on group pages, and the main content. Scripts
// are this server's files only (htmx and dashboard.js); the pages work without them.
import { AppError } from '../../errors.js';
import { enc, html, type Html } from './html.js';
import type { Session } from './guard.js';
import { journalNavEntry } from './requests-seam.js';

export interface GroupHead {
  id: string;
  name: string;
  sandbox: boolean;
}

export interface PageParts {
  title: string;
  session?: Session;
  group?: GroupHead;
  /** The group page this is (its nav entry is marked current). */
  section?: string;
  clock?: Html;
  body: Html;
}

const HTMX_CONFIG = '{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"historyCacheSize":0}';

export const SECTIONS: Array<[string, string]> = [
  ['transactions', 'Transactions'],
  ['customers', 'Customers'],
  ['subscriptions', 'Subscriptions'],
  ['invoices', 'Invoices'],
  ['payment-links', 'Payment links'],
  ['events', 'Events & webhooks'],
  ['faults', 'Faults'],
  ['reports', 'Reports'],
  ['recording', 'Recording'],
];

/** A form's hidden CSRF field (every POST carries it). */
export const csrfField = (s: Session | undefined): Html => html`<input type="hidden" name="_csrf" value="${s?.csrf ?? ''}">`;

function groupNav(g: GroupHead, section: string | undefined): Html {
  const base = `/dashboard/groups/${enc(g.id)}`;
  const entries = [...SECTIONS];
  const journal = journalNavEntry();
  if (journal) entries.splice(0, 0, journal);
  return html`<nav class="group-nav" aria-label="Group pages"><ul>${entries.map(
    ([slug, label]) => html`<li><a href="${base}/${slug}"${slug === section ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
}

export function layout(parts: PageParts): Html {
  const g = parts.group;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<title>${parts.title} · payctl dashboard</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/htmx.min.js" defer></script>
<script src="/dashboard/assets/dashboard.js" defer></script>
</head><body>
<header class="top">
  <a class="brand" href="/dashboard">payctl dashboard</a>
  <form class="search" role="search" method="get" action="/dashboard/search">
    <label for="search-q">Search by id</label>
    <input id="search-q" name="q" type="search" required maxlength="200" placeholder="a transaction, customer, event… id">
    ${g ? html`<input type="hidden" name="group" value="${g.id}">` : ''}
    <button type="submit">Search</button>
  </form>
  ${parts.session ? html`<form method="post" action="/dashboard/logout" class="logout">${csrfField(parts.session)}<button type="submit" class="secondary">Sign out</button></form>` : ''}
</header>
${g ? html`<div class="group-head"><p class="crumbs"><a href="/dashboard">Groups</a> › <span>${g.name}</span> ${g.sandbox ? html`<span class="tag">sandbox</span>` : html`<span class="tag">group</span>`} <code>${g.id}</code></p>${groupNav(g, parts.section)}</div>` : ''}
<div class="frame">
<main id="main">
<h1>${parts.title}</h1>
${parts.body}
</main>
${parts.clock ? html`<aside class="clock-aside" aria-label="Clock">${parts.clock}</aside>` : ''}
</div>
</body></html>`;
}

export function loginPage(problem?: string): Html {
  return layout({
    title: 'Sign in',
    body: html`${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<p>The dashboard takes this server's admin token: open the <code>Dashboard:</code> link that <code>payctl serve</code> printed, or paste the token here.</p>
<form method="post" action="/dashboard/login" class="stack">
  <label for="token">Admin token</label>
  <input id="token" name="token" type="password" autocomplete="off" required>
  <button type="submit">Sign in</button>
</form>`,
  });
}

export function errorPage(err: unknown): Html {
  const e = err instanceof AppError ? err : undefined;
  const message = e ? e.message : 'Something went wrong in the server (see its log).';
  const fields = e?.fields ?? [];
  return layout({
    title: e?.status === 404 ? 'Not found' : 'Refused',
    body: html`<p class="error" role="alert">${message}</p>${fields.length ? html`<ul class="fields">${fields.map((f) => html`<li><code>${f.path}</code>: ${f.message}</li>`)}</ul>` : ''}<p><a href="/dashboard">Back to the groups</a></p>`,
  });
}

/** "2026-12-07T14:05:03.120Z" → "2026-12-07 14:05:03 UTC": the sandbox's own time (its clock), the zone named. */
export const when = (iso: string | null | undefined): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : '—');

/** A table that scrolls sideways on a phone instead of widening the page. */
export const tableWrap = (caption: string, head: string[], rows: Html[], empty = 'None yet.'): Html =>
  rows.length === 0
    ? html`<p class="empty">${empty}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table><caption>${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
