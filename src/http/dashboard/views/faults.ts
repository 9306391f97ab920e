// A sandbox's API fault rules (docs/faults.md): the list with their counters, a form with
// the API's own fields (checked by the API's schema: a bad field is its 400, shown here),
// and remove; then the webhook endpoints' rules (./webhook-faults.ts).
import { AppError } from '../../../errors.js';
import { addFaultRule, listFaultRules, removeFaultRule } from '../../../services/faults/rules.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { API_FAULT_ACTIONS, FAULT_OPERATIONS } from '../../../domain/faults.js';
import { enc, html, type Html } from '../html.js';
import { csrfField, tableWrap } from '../layout.js';
import { Redirect, type Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope } from '../scope.js';
import { groupPage } from './group-page.js';
import { webhookFaultsSection } from './webhook-faults.js';
import { formBody, refusalFields } from '../form.js';

/** The rule's fields as the API names them; those sent as JSON numbers. */
const TEXT_FIELDS = ['path', 'from', 'until'] as const;
const NUMBER_FIELDS = ['rate', 'first', 'every', 'count', 'seed', 'ms', 'ms_max', 'status', 'retry_after'] as const;
const flashKey = (g: string) => `faults:${g}`;

const select = (name: string, label: string, options: readonly string[]) =>
  html`<label>${label} <select name="${name}"><option value="">—</option>${options.map((o) => html`<option value="${o}">${o}</option>`)}</select></label>`;

function addForm(c: ViewContext, action: string): Html {
  return html`<form method="post" action="${action}" class="grid-form" aria-labelledby="add-fault">
${csrfField(c.session)}
${select('operation', 'Operation', FAULT_OPERATIONS)}
${select('method', 'Method', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])}
<label>Path <input name="path" placeholder="/api/v1/groups/*/transaction" maxlength="500"></label>
${select('action', 'Action', API_FAULT_ACTIONS)}
${NUMBER_FIELDS.map((f) => html`<label>${f} <input name="${f}" inputmode="decimal" maxlength="20"></label>`)}
<label>from <input name="from" placeholder="2027-01-01T00:00:00Z" maxlength="40"></label>
<label>until <input name="until" maxlength="40"></label>
<label>response_code <input name="response_code" maxlength="10"></label>
<button type="submit">Add rule</button></form>`;
}

export async function faultsPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const base = `/dashboard/groups/${enc(s.head.id)}/faults`;
  const problem = c.session.flash.get(flashKey(s.head.id)) as string | undefined;
  c.session.flash.delete(flashKey(s.head.id));
  const webhooks = await webhookFaultsSection(c, s, base);
  if (!s.head.sandbox) return groupPage(c, s, 'faults', 'Faults', html`<p>API fault rules belong to sandboxes; this group is not one.</p>${webhooks}`);
  const rules = (await execute(listFaultRules, s.g, s.ctx, { group_id: s.head.id })).data;
  const rows = rules.map((r) => {
    const what = r.operation ?? `${r.method ?? '*'} ${r.path ?? ''}`;
    const detail = Object.entries(r)
      .filter(([k, v]) => v !== undefined && !['id', 'group_id', 'operation', 'method', 'path', 'action', 'calls', 'fired', 'created_at'].includes(k))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    return html`<tr><td><code class="id">${r.id}</code></td><td>${what}</td><td>${r.action}</td><td>${detail}</td><td class="num">${String(r.calls)}</td><td class="num">${String((r as { fired?: number }).fired ?? '')}</td>
<td><form method="post" action="${base}/${enc(r.id)}/remove" class="inline">${csrfField(c.session)}<button type="submit" class="danger" aria-label="Remove rule ${r.id}">Remove</button></form></td></tr>`;
  });
  const body = html`${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
${tableWrap('API fault rules, oldest first', ['Rule', 'Applies to', 'Action', 'Settings', 'Seen', 'Fired', 'Remove'], rows, 'No fault rule: every call answers normally.')}
<section><h2 id="add-fault">Add a rule</h2><p class="muted">The same fields as POST /api/v1/sandboxes/{id}/faults (docs/faults.md); leave a field empty to leave it out.</p>${addForm(c, base)}</section>
${webhooks}`;
  return groupPage(c, s, 'faults', 'Faults', body);
}

/** The form as the API's JSON body (form.ts). */
const ruleBody = (form: URLSearchParams) => formBody(form, ['operation', 'method', 'action', 'response_code', ...TEXT_FIELDS], NUMBER_FIELDS);

export async function addFaultAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  try {
    await executeRaw(addFaultRule, s.g, s.ctx, { ...ruleBody(c.form), group_id: s.head.id });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    c.session.flash.set(flashKey(s.head.id), refusalFields(err) ?? err.message);
  }
  return new Redirect(`/dashboard/groups/${enc(s.head.id)}/faults`);
}

export async function removeFaultAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  await execute(removeFaultRule, s.g, s.ctx, { group_id: s.head.id, fault_id: pathId(c, 'fault_id') });
  return new Redirect(`/dashboard/groups/${enc(s.head.id)}/faults`);
}
