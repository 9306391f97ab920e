// "The requests that touched it" on an object's page: the journal's calls whose path or
// answer names the object's id, newest first. The journal keeps at most 1,000 calls a
// group (docs/journal.md), so reading it whole is the lookup.
import { html, type Html } from '../html.js';
import { tableWrap, when } from '../layout.js';
import type { GroupScope } from '../scope.js';
import { journalOf, requestHref } from './requests.js';

/** Calls shown at most (the newest). */
const SHOWN = 50;

export async function requestsTouching(s: GroupScope, objectId: string): Promise<Html> {
  const touched = (await journalOf(s)).filter((r) => r.path.includes(objectId) || (r.answer !== null && JSON.stringify(r.answer).includes(objectId))).slice(0, SHOWN);
  const rows = touched.map(
    (r) => html`<tr><td><time datetime="${r.at}">${when(r.at)}</time></td><td>${r.method}</td><td><a href="${requestHref(s.head.id, r.id)}"><code class="path">${r.path}</code></a></td><td>${r.status}</td></tr>`,
  );
  return html`<section aria-labelledby="touching"><h2 id="touching">Requests that touched it</h2>${tableWrap('Requests that touched it, newest first', ['Time', 'Method', 'Path', 'Status'], rows, 'No request in the journal names it.')}</section>`;
}
