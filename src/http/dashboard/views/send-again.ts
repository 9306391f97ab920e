// "Send again" on a request's page (docs/dashboard.md): the journaled call — its method,
// path, body and Payctl-Simulate — sent once more through the API's own handler and
// pipeline, in this process, acting for the group (the dashboard holds no key:
// ../../pipeline/in-process.ts), then the new call's page. A call the journal did not keep
// whole cannot be sent again faithfully (a masked card number or tax id, a body not kept, a
// session token never kept): it is refused with the reason, never sent with the mask.
// An Idempotency-Key is never reused: a call that had one is sent with a fresh one.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../errors.js';
import { getRequest } from '../../../services/journal/list.js';
import { execute } from '../../../services/use-case.js';
import { firstMasked, holdsMask } from '../../../domain/masked.js';
import { stringifyJson } from '../../../lib/exact-json.js';
import type { JournalItem } from '../../../domain/journal.js';
import type { RouteDef } from '../../route.js';
import { callInProcess } from '../../pipeline/in-process.js';
import { SANDBOX_HEADER } from '../../pipeline/record.js';
import { enc, html, type Html } from '../html.js';
import { csrfField, errorPage } from '../layout.js';
import { Page, Redirect, type Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope } from '../scope.js';

type Kept = JournalItem & { headers: Record<string, string> };

const flashKey = (requestId: string) => `sent-again:${requestId}`;

/** The route a journaled call was answered by (its method and template). */
const routeOf = (routes: readonly RouteDef[], r: JournalItem) => routes.find((d) => d.method === r.method && d.path === r.route);

/** Why `r` cannot be sent again as it was, or undefined when it can. */
export function whyNotAgain(routes: readonly RouteDef[], r: Kept): string | undefined {
  const route = routeOf(routes, r);
  if (!route) return `its route (${r.method} ${r.route}) is not one this server answers`;
  if (route.stream) return 'it is a stream of events, which does not end';
  if (route.upload) return 'its body was a file, which the journal does not keep';
  if (route.auth.kind === 'session') return 'it was made with a payment link’s session token, which the journal never keeps';
  if (route.path === '/api/v1/tokens') return 'it is a tokenize call: the card typed into it is never kept';
  if (r.note?.includes('request body')) return `its body was not kept (${r.note})`;
  if (holdsMask(r.path)) return 'its path holds a value the journal masked (a card number or a key)';
  const masked = firstMasked(r.body);
  if (masked !== undefined) {
    return `its body’s ${masked} was masked by the journal ([redacted] or •••••): the value sent is not kept, and sending the mask as if it were that value would be another call`;
  }
  if (Object.values(r.headers).some(holdsMask)) return 'a header it sent holds a value the journal masked';
  return undefined;
}

/** The "Send again" section of a request's page: the button, or why there is none. */
export function sendAgainSection(c: ViewContext, groupId: string, r: Kept): Html {
  const why = c.routes ? whyNotAgain(c.routes, r) : 'this server has no API to send it to';
  const notice = c.session.flash.get(flashKey(r.id)) as string | undefined;
  c.session.flash.delete(flashKey(r.id));
  const idem = r.idempotency_key !== null ? ' It had an Idempotency-Key: it is sent with a new one (the old one would only replay the first answer).' : '';
  return html`<section aria-labelledby="send-again"><h2 id="send-again">Send again</h2>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${
  why === undefined
    ? html`<p>Sends this call again through the API — the same method, path and body, as this group (no key needed) — and opens the new call’s page.${idem}</p>
<form method="post" action="/dashboard/groups/${enc(groupId)}/requests/${enc(r.id)}/send-again" class="inline">${csrfField(c.session)}<button type="submit">Send again</button></form>`
    : html`<p id="send-again-why" class="muted">This call cannot be sent again: ${why}. “Copy as curl” gives it to send with the values of your own.</p>
<button type="button" disabled aria-describedby="send-again-why">Send again</button>`
}</section>`;
}

/** POST …/requests/{id}/send-again: the call again, then its page. */
export async function sendAgainAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const id = pathId(c, 'request_id');
  const r = await execute(getRequest, s.g, s.ctx, { group_id: s.head.id, request_id: id });
  const why = c.routes && c.api ? whyNotAgain(c.routes, r) : 'this server has no API to send it to';
  if (why !== undefined) return new Page(errorPage(new AppError(409, 'invalid_request', `Request ${id} cannot be sent again: ${why}.`)), 409);
  const route = routeOf(c.routes!, r)!;
  const headers: Record<string, string> = {};
  if (r.headers['Payctl-Simulate'] !== undefined) headers['Payctl-Simulate'] = r.headers['Payctl-Simulate'];
  if (r.idempotency_key !== null && !route.noIdempotency) headers['Idempotency-Key'] = `dashboard-${randomUUID()}`;
  // A public call is journaled in the group its Payctl-Sandbox header names (as the first one was).
  if (route.auth.kind === 'public') headers[SANDBOX_HEADER] = s.head.id;
  const sent = await callInProcess(c.api!, {
    method: r.method,
    path: r.path,
    headers,
    body: r.body === null || r.body === undefined ? '' : stringifyJson(r.body),
    actingFor: s.head.id,
    remoteAddress: c.req.socket.remoteAddress ?? '127.0.0.1',
  });
  if (!sent.requestId) throw new Error('an in-process call was answered without a Request-Id');
  const how = sent.status === 0 ? 'it ended without an answer (a fault rule dropped it)' : `answered ${sent.status}`;
  c.session.flash.set(flashKey(sent.requestId), `Sent again from request ${id}: ${how}.${headers['Idempotency-Key'] ? ` Its new Idempotency-Key: ${headers['Idempotency-Key']}.` : ''}`);
  return new Redirect(`/dashboard/groups/${enc(s.head.id)}/requests/${enc(sent.requestId)}`);
}
