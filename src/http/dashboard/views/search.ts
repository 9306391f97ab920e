// Search by id (`/dashboard/search?q=ID`): the object of any kind with that id opens its
// page (a request id: its page). On a group's page the search looks in that group first; then in every group.
// A miss says what was searched, with a card number, key or secret typed into the box
// masked as the journal masks it (no page shows one).
import { contextFor } from '../../../services/context.js';
import { listGroups } from '../../../services/groups/groups.js';
import { execute } from '../../../services/use-case.js';
import { redactText } from '../../../domain/sensitive.js';
import { html } from '../html.js';
import { layout } from '../layout.js';
import { Page, Redirect, type Answer } from '../respond.js';
import type { ViewContext } from '../context.js';
import { groupScope, orMissing } from '../scope.js';
import { findAnyKind } from './find.js';
import { objectHref } from './object-links.js';
import { requestHref } from './requests.js';
import { getRequest } from '../../../services/journal/list.js';

/** Ids are UUIDs and a few prefixed forms: anything longer is not an id. */
const MAX_ID = 200;
/** A request id's shape (the journal's ids are UUIDs). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function searchPage(c: ViewContext): Promise<Answer> {
  const q = (c.url.searchParams.get('q') ?? '').trim();
  const first = c.url.searchParams.get('group');
  if (q && q.length <= MAX_ID) {
    const groups = (await execute(listGroups, c.p, contextFor(c.p, undefined), {})).map((g) => g.id);
    if (groups.includes(q)) return new Redirect(`/dashboard/groups/${encodeURIComponent(q)}/transactions`);
    const order = first && groups.includes(first) ? [first, ...groups.filter((g) => g !== first)] : groups;
    for (const groupId of order) {
      const s = await orMissing(groupScope(c.p, groupId));
      if (!s) continue;
      const hit = await findAnyKind(s, q);
      if (hit) return new Redirect(objectHref(groupId, hit.kind, q));
      // A request id: a call in the group's journal (read by its id, not the whole journal).
      if (UUID.test(q) && (await orMissing(execute(getRequest, s.g, s.ctx, { group_id: groupId, request_id: q })))) return new Redirect(requestHref(groupId, q));
    }
  }
  return new Page(
    layout({
      title: 'Search by id',
      session: c.session,
      body: q ? html`<p role="status">No transaction, customer, card, plan, subscription, product, invoice, partner, payment link, event or request has the id <code>${redactText(q)}</code>.</p>` : html`<p>Type an id in the search box.</p>`,
    }),
    q ? 404 : 200,
  );
}
