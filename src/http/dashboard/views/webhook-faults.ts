// The Faults page's webhook part (docs/faults.md "Faults on webhooks"): every endpoint's
// fault rules with their counters, a form with the API's own fields (checked by the API's
// schema: a bad field is its 400, shown on the page) and remove — through the same use
// cases as `POST/GET/DELETE …/webhook_endpoints/{id}/faults`.
import { AppError } from '../../../errors.js';
import { listWebhookEndpoints } from '../../../services/webhooks/endpoints.js';
import { addWebhookFaultRule, listWebhookFaultRules, removeWebhookFaultRule } from '../../../services/faults/webhook-rules.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { WEBHOOK_FAULT_ACTIONS, type WebhookFaultRule } from '../../../domain/faults.js';
import type { WebhookEndpoint } from '../../../domain/webhooks.js';
import { enc, html, type Html } from '../html.js';
import { csrfField, tableWrap } from '../layout.js';
import { Redirect, type Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, type GroupScope } from '../scope.js';
import { formBody, refusalFields } from '../form.js';

const TEXT_FIELDS = ['action', 'delay', 'window', 'from', 'until'] as const;
const NUMBER_FIELDS = ['rate', 'first', 'every', 'count', 'seed'] as const;
/** The session's flash of the last add that the API refused. */
export const webhookFlashKey = (g: string) => `webhook-faults:${g}`;
const SHOWN_APART = new Set(['id', 'group_id', 'endpoint_id', 'action', 'calls', 'fired', 'created_at']);

async function endpointsWithRules(s: GroupScope): Promise<Array<{ endpoint: WebhookEndpoint; rules: WebhookFaultRule[] }>> {
  const list = await executeRaw(listWebhookEndpoints, s.g, s.ctx, { limit: '100' });
  return Promise.all(
    list.data.items.map(async (endpoint) => ({ endpoint, rules: (await execute(listWebhookFaultRules, s.g, s.ctx, { group_id: s.head.id, endpoint_id: endpoint.id })).data })),
  );
}

function addForm(c: ViewContext, base: string, endpoints: WebhookEndpoint[]): Html {
  return html`<form method="post" action="${base}/webhook" class="grid-form" aria-labelledby="add-webhook-fault">
${csrfField(c.session)}
<label>Endpoint <select name="endpoint_id" required>${endpoints.map((e) => html`<option value="${e.id}">${e.url}</option>`)}</select></label>
<label>Action <select name="action" required>${WEBHOOK_FAULT_ACTIONS.map((a) => html`<option value="${a}">${a}</option>`)}</select></label>
<label>delay <input name="delay" placeholder="2h" maxlength="40"></label>
<label>window <input name="window" placeholder="10m" maxlength="40"></label>
${NUMBER_FIELDS.map((f) => html`<label>${f} <input name="${f}" inputmode="decimal" maxlength="20"></label>`)}
<label>from <input name="from" placeholder="2027-01-01T00:00:00Z" maxlength="40"></label>
<label>until <input name="until" maxlength="40"></label>
<button type="submit">Add webhook rule</button></form>`;
}

/** The webhook part of the Faults page. */
export async function webhookFaultsSection(c: ViewContext, s: GroupScope, base: string): Promise<Html> {
  const problem = c.session.flash.get(webhookFlashKey(s.head.id)) as string | undefined;
  c.session.flash.delete(webhookFlashKey(s.head.id));
  const endpoints = await endpointsWithRules(s);
  const rows = endpoints.flatMap(({ endpoint, rules }) =>
    rules.map((r) => {
      const detail = Object.entries(r)
        .filter(([k, v]) => v !== undefined && !SHOWN_APART.has(k))
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ');
      return html`<tr><td><code class="id">${r.id}</code></td><td>${endpoint.url}</td><td>${r.action}</td><td>${detail}</td><td class="num">${String(r.calls)}</td><td class="num">${String(r.fired)}</td>
<td><form method="post" action="${base}/webhook/${enc(endpoint.id)}/${enc(r.id)}/remove" class="inline">${csrfField(c.session)}<button type="submit" class="danger" aria-label="Remove webhook rule ${r.id}">Remove</button></form></td></tr>`;
    }),
  );
  return html`<section aria-labelledby="webhook-faults"><h2 id="webhook-faults">Webhook fault rules</h2>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
${tableWrap('Webhook fault rules, per endpoint', ['Rule', 'Endpoint', 'Action', 'Settings', 'Seen', 'Fired', 'Remove'], rows, 'No webhook fault rule: every delivery is sent as it is.')}
<h3 id="add-webhook-fault">Add a webhook rule</h3>
${
  endpoints.length === 0
    ? html`<p class="empty">No webhook endpoint to add a rule to (add one with payctl webhook create or the API).</p>`
    : html`<p class="muted">The same fields as POST /api/v1/groups/{group_id}/webhook_endpoints/{id}/faults (docs/faults.md): delay for delay, window for reorder; leave a field empty to leave it out.</p>${addForm(c, base, endpoints.map((e) => e.endpoint))}`
}</section>`;
}

/** The form as the API's JSON body (form.ts). */
const ruleBody = (form: URLSearchParams) => formBody(form, TEXT_FIELDS, NUMBER_FIELDS);

/** POST …/faults/webhook: add a rule to the chosen endpoint. */
export async function addWebhookFaultAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  try {
    await executeRaw(addWebhookFaultRule, s.g, s.ctx, { ...ruleBody(c.form), group_id: s.head.id, endpoint_id: c.form.get('endpoint_id') ?? '' });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    c.session.flash.set(webhookFlashKey(s.head.id), refusalFields(err) ?? err.message);
  }
  return new Redirect(`/dashboard/groups/${enc(s.head.id)}/faults`);
}

/** POST …/faults/webhook/{endpoint_id}/{fault_id}/remove. */
export async function removeWebhookFaultAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  await execute(removeWebhookFaultRule, s.g, s.ctx, { group_id: s.head.id, endpoint_id: pathId(c, 'endpoint_id'), fault_id: pathId(c, 'fault_id') });
  return new Redirect(`/dashboard/groups/${enc(s.head.id)}/faults`);
}
