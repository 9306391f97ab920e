// The groups page (`/dashboard`): every group, sandbox or not, with its clock and counts;
// create a sandbox (with the demo data), fork, export (a download) and drop (after a
// confirmation page). API keys a new sandbox gets are never shown here: the dashboard
// itself acts as the operator, and `payctl key create` makes keys for a test suite.
import { contextFor } from '../../../services/context.js';
import { listGroups } from '../../../services/groups/groups.js';
import { createSandbox, deleteSandbox, forkSandbox, listSandboxes, peekGroupClock } from '../../../services/sandboxes/sandboxes.js';
import { exportSandbox } from '../../../services/sandboxes/export.js';
import { report } from '../../../services/reporting/reporting.js';
import { listCustomers } from '../../../services/customers/customers.js';
import { listSubscriptions } from '../../../services/recurring/subscriptions.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { PAGE_LIMIT_MAX } from '../../../domain/paging.js';
import type { Group } from '../../../domain/groups.js';
import { enc, html, type Html } from '../html.js';
import { csrfField, layout, tableWrap, when } from '../layout.js';
import { answerBudget } from '../../route.js';
import { ENV } from '../../../config/env.js';
import { Download, Page, Redirect, type Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, linkedAccountsOf, type GroupScope } from '../scope.js';


interface Counts {
  transactions: number;
  customers: string;
  subscriptions: number;
}

/** Counts as the API's own lists and reports answer them (customers: a page of at most 1,000, so "1000+"). */
async function countsOf(s: GroupScope): Promise<Counts> {
  const accounts = await linkedAccountsOf(s);
  let transactions = 0;
  let subscriptions = 0;
  for (const a of accounts) {
    const r = await execute(report, s.g, s.ctx, { linked_account_id: a.id, query: { type: 'count', start: '1970-01-01' } });
    transactions += 'total_count' in r ? r.total_count : 0;
    subscriptions += (await executeRaw(listSubscriptions, s.g, s.ctx, { linked_account_id: a.id, limit: '1' })).data.total_count;
  }
  const customers = (await executeRaw(listCustomers, s.g, s.ctx, { limit: String(PAGE_LIMIT_MAX) })).length;
  return { transactions, customers: customers >= PAGE_LIMIT_MAX ? `${PAGE_LIMIT_MAX}+` : String(customers), subscriptions };
}

async function groupRow(c: ViewContext, group: Group, sandboxes: Map<string, string>): Promise<Html> {
  const s = await groupScope(c.p, group.id);
  const clock = await execute(peekGroupClock, s.g, s.ctx, { group_id: group.id });
  const status = sandboxes.get(group.id);
  const counts = status === 'active' || status === undefined ? await countsOf(s) : undefined;
  const base = `/dashboard/groups/${enc(group.id)}`;
  const mode = (clock as { mode?: string }).mode;
  const actions = status
    ? html`<form method="post" action="${base}/fork" class="inline">${csrfField(c.session)}<button type="submit" class="secondary" aria-label="Fork ${group.name}">Fork</button></form>
<a class="button secondary" href="${base}/export" aria-label="Export ${group.name}">Export</a>
<a class="button danger" href="${base}/drop" aria-label="Drop ${group.name}">Drop…</a>`
    : html`<span class="muted">not a sandbox</span>`;
  return html`<tr>
<td><a href="${base}/transactions">${group.name}</a><br><code class="id">${group.id}</code></td>
<td>${status ? html`sandbox${status !== 'active' ? html` (${status})` : ''}` : 'group'}</td>
<td><time datetime="${clock.now}">${when(clock.now)}</time>${mode ? html` <span class="tag">${mode}</span>` : ''}</td>
<td class="num">${counts?.transactions ?? '…'}</td><td class="num">${counts?.customers ?? '…'}</td><td class="num">${counts?.subscriptions ?? '…'}</td>
<td class="actions">${actions}</td></tr>`;
}

export async function groupsPage(c: ViewContext): Promise<Answer> {
  const ctx = contextFor(c.p, undefined);
  const [groups, sandboxes] = await Promise.all([execute(listGroups, c.p, ctx, {}), execute(listSandboxes, c.p, ctx, {})]);
  const status = new Map(sandboxes.data.map((s) => [s.group_id, s.status]));
  const rows: Html[] = [];
  for (const g of groups) rows.push(await groupRow(c, g, status));
  const created = c.session.flash.get('created') as string | undefined;
  c.session.flash.delete('created');
  return new Page(
    layout({
      title: 'Groups',
      session: c.session,
      body: html`${created ? html`<p class="notice" role="status">${created}</p>` : ''}
${tableWrap('Every group of this server', ['Group', 'Kind', 'Clock', 'Transactions', 'Customers', 'Subscriptions', 'Actions'], rows, 'No group yet: create a sandbox below, or run payctl init --demo.')}
<section aria-labelledby="new-sandbox"><h2 id="new-sandbox">New sandbox</h2>
<form method="post" action="/dashboard/sandboxes" class="stack">
  ${csrfField(c.session)}
  <label for="sandbox-name">Name</label>
  <input id="sandbox-name" name="name" maxlength="100" placeholder="Sandbox">
  <label class="check"><input type="checkbox" name="demo" value="true" checked> With the demo data</label>
  <button type="submit">Create sandbox</button>
</form></section>`,
    }),
  );
}

export async function createSandboxAction(c: ViewContext): Promise<Answer> {
  const name = c.form.get('name')?.trim();
  const made = await executeRaw(createSandbox(c.seedDemo), c.p, contextFor(c.p, undefined), { ...(name ? { name } : {}), demo: c.form.get('demo') === 'true' });
  c.session.flash.set('created', `Created sandbox ${made.name} (${made.group_id}). Its API keys are not shown here; make one with payctl key create.`);
  return new Redirect('/dashboard');
}

export async function forkAction(c: ViewContext): Promise<Answer> {
  const made = await executeRaw(forkSandbox, c.p, contextFor(c.p, undefined), { group_id: pathId(c, 'group_id') }, answerBudget(c.p, ENV.forkAnswerMs));
  c.session.flash.set('created', `Forked into ${made.name} (${made.group_id})${made.status === 'forking' ? ': still copying' : ''}.`);
  return new Redirect('/dashboard');
}

export async function exportDownload(c: ViewContext): Promise<Answer> {
  const id = pathId(c, 'group_id');
  const file = await execute(exportSandbox, c.p, contextFor(c.p, undefined), { group_id: id });
  return new Download(file.lines, 'application/x-ndjson', `sandbox-${id}.jsonl`);
}

export async function dropConfirmPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  return new Page(
    layout({
      title: `Drop ${s.head.name}?`,
      session: c.session,
      body: html`<p>Dropping removes the sandbox <strong>${s.head.name}</strong> (<code>${s.head.id}</code>) and every row of it; its keys stop working at once. This cannot be undone.</p>
<form method="post" action="/dashboard/groups/${enc(s.head.id)}/drop" class="inline">${csrfField(c.session)}<button type="submit" class="danger">Drop this sandbox</button></form>
<a class="button secondary" href="/dashboard">Keep it</a>`,
    }),
  );
}

export async function dropAction(c: ViewContext): Promise<Answer> {
  const out = await execute(deleteSandbox, c.p, contextFor(c.p, undefined), { group_id: pathId(c, 'group_id') });
  c.session.flash.set('created', `Dropped sandbox ${out.group_id}.`);
  return new Redirect('/dashboard');
}
