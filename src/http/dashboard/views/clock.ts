// The clock panel of every group page: the group's time (and mode, where the group has
// one), "Advance by" with presets, "Set", what the last move ran (the API's `work`) and,
// while a long catch-up runs, its progress, refreshed by htmx until it has caught up.
import { AppError } from '../../../errors.js';
import { moveGroupClock, peekGroupClock, showGroupClock, type GroupClockState } from '../../../services/sandboxes/sandboxes.js';
import { executeRaw, execute } from '../../../services/use-case.js';
import { answerBudget } from '../../route.js';
import { ENV } from '../../../config/env.js';
import { enc, html, type Html } from '../html.js';
import { csrfField, when } from '../layout.js';
import { Page, Redirect, type Answer } from '../respond.js';
import type { Session } from '../guard.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, type GroupScope } from '../scope.js';
import { refusalFields } from '../form.js';
import { addCycles } from '../../../domain/recurring/calendar.js';

const PRESETS: Array<[string, string]> = [
  ['1h', '+1 hour'],
  ['1d', '+1 day'],
  ['1mo', '+1 month'],
];

const flashKey = (groupId: string) => `clock:${groupId}`;

function workList(work: Record<string, number> | undefined): Html {
  if (!work) return html``;
  const done = Object.entries(work).filter(([, n]) => n > 0);
  return html`<div class="work" role="status"><h3>What the last move ran</h3>${
    done.length === 0 ? html`<p>Nothing was due.</p>` : html`<ul>${done.map(([k, n]) => html`<li><span>${k.replaceAll('_', ' ')}</span>: <strong data-work="${k}">${n}</strong></li>`)}</ul>`
  }</div>`;
}

function catchUp(state: GroupClockState & { catching_up?: boolean }, url: string): Html {
  const c = state.catch_up;
  // A page's own render reads no counts (peekGroupClock): the refresh below reads them while a catch-up runs.
  if (!c && state.catching_up) return html`<div class="catch-up" hx-get="${url}" hx-trigger="load" hx-target="closest .clock-panel" hx-swap="outerHTML"><p role="status">Catching up…</p></div>`;
  if (!c || c.status === 'caught_up') return html`<p class="muted">Nothing is being caught up.</p>`;
  return html`<div class="catch-up" hx-get="${url}" hx-trigger="load delay:1s" hx-target="closest .clock-panel" hx-swap="outerHTML">
<p role="status">Catching up (${c.status}${c.job ? html`: ${c.job}` : ''}) — ${c.charges_due} charges and ${c.transactions_to_settle} settlements still due.</p>
<progress aria-label="Catch-up progress"></progress></div>`;
}

export function renderClockPanel(s: GroupScope, state: GroupClockState & { catching_up?: boolean }, session: Session): Html {
  const base = `/dashboard/groups/${enc(s.head.id)}/clock`;
  const mode = (state as GroupClockState & { mode?: string }).mode;
  const flash = session.flash.get(flashKey(s.head.id)) as { work?: Record<string, number>; error?: string } | undefined;
  // Kept while a catch-up runs: the panel's own refreshes show the move's work until it has caught up.
  const running = state.catching_up === true || (state.catch_up !== undefined && state.catch_up.status !== 'caught_up');
  if (!running) session.flash.delete(flashKey(s.head.id));
  return html`<section class="clock-panel" aria-labelledby="clock-title">
<h2 id="clock-title">Clock</h2>
<p class="now"><time datetime="${state.now}" data-clock-now>${when(state.now)}</time>${mode ? html` <span class="tag">${mode}</span>` : ''}</p>
<p class="muted">The group's own time (UTC); offset ${Math.round(state.offset_ms / 1000)} s from the platform clock.</p>
${flash?.error ? html`<p class="error" role="alert">${flash.error}</p>` : ''}
<form method="post" action="${base}" class="stack">
  ${csrfField(session)}
  <label for="advance-by">Advance by</label>
  <input id="advance-by" name="advance" value="1d" maxlength="40" aria-describedby="advance-help">
  <small id="advance-help">30d, 12h, 1d12h …</small>
  <button type="submit">Advance</button>
  <div class="presets" role="group" aria-label="Advance presets">${PRESETS.map(([v, label]) => html`<button type="submit" name="preset" value="${v}" class="secondary">${label}</button>`)}</div>
</form>
<form method="post" action="${base}" class="stack">
  ${csrfField(session)}
  <label for="set-to">Set to</label>
  <input id="set-to" name="set" placeholder="${state.now}" maxlength="40">
  <button type="submit" class="secondary">Set</button>
</form>
${workList(flash?.work)}
${catchUp(state, base)}
</section>`;
}

/** The panel of a page: the clock without counting due work (the fragment below counts it). */
export async function clockPanel(s: GroupScope, session: Session): Promise<Html> {
  return renderClockPanel(s, await execute(peekGroupClock, s.g, s.ctx, { group_id: s.head.id }), session);
}

/** GET …/clock: the panel alone (htmx refreshes it while a catch-up runs). */
export async function clockPanelFragment(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  return new Page(renderClockPanel(s, await execute(showGroupClock, s.g, s.ctx, { group_id: s.head.id }), c.session));
}

/** The page the form was on (a dashboard path), else the group's first page. */
export function backTo(c: ViewContext, fallback: string): string {
  const referer = c.req.headers.referer;
  if (typeof referer === 'string') {
    try {
      const u = new URL(referer);
      if (u.pathname.startsWith('/dashboard')) return u.pathname + u.search;
    } catch {
      // no usable referer
    }
  }
  return fallback;
}

/** POST …/clock: advance (a preset or the typed duration) or set, then back to the page. */
export async function clockAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const preset = c.form.get('preset');
  const set = c.form.get('set')?.trim();
  let input: Record<string, string>;
  // +1 month: the same day of the next month (the last of a shorter one), as a monthly plan counts it (domain/recurring/calendar.ts).
  if (preset === '1mo') input = { set: addCycles((await execute(showGroupClock, s.g, s.ctx, { group_id: s.head.id })).now, 'monthly', 1, 1) };
  else if (preset) input = { advance: preset };
  else if (set) input = { set };
  else input = { advance: c.form.get('advance')?.trim() ?? '' };
  try {
    const moved = await executeRaw(moveGroupClock, s.g, s.ctx, { ...input, group_id: s.head.id }, answerBudget(s.g, ENV.clockAnswerMs));
    c.session.flash.set(flashKey(s.head.id), { work: moved.work });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    c.session.flash.set(flashKey(s.head.id), { error: refusalFields(err) ?? err.message });
  }
  return new Redirect(backTo(c, `/dashboard/groups/${enc(s.head.id)}/transactions`));
}
