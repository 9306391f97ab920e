// Recording (docs/scenarios.md): start or stop recording the sandbox's calls, and download
// what was recorded as a scenario file (secrets are never recorded).
import { getRecording, getRecordingSummary, startRecording, stopRecording } from '../../../services/sandboxes/recordings.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { enc, html } from '../html.js';
import { csrfField, when } from '../layout.js';
import { Download, Redirect, type Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, orMissing } from '../scope.js';
import { groupPage } from './group-page.js';

export async function recordingPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  if (!s.head.sandbox) return groupPage(c, s, 'recording', 'Recording', html`<p>Recordings belong to sandboxes; this group is not one.</p>`);
  const rec: { recording?: boolean; started_at?: string | null; calls?: number } = (await orMissing(execute(getRecordingSummary, s.g, s.ctx, { group_id: s.head.id }))) ?? {};
  const on = rec.recording === true;
  const base = `/dashboard/groups/${enc(s.head.id)}/recording`;
  const calls = rec.calls ?? 0;
  const body = html`<p role="status">${on ? 'Recording' : 'Not recording'}${rec.started_at ? html` (started ${when(rec.started_at)})` : ''}; ${calls} calls recorded.</p>
<form method="post" action="${base}" class="inline">${csrfField(c.session)}<input type="hidden" name="do" value="${on ? 'stop' : 'start'}"><button type="submit">${on ? 'Stop recording' : 'Start recording'}</button></form>
${calls > 0 ? html`<a class="button secondary" href="${base}/scenario.yaml">Download the scenario file</a>` : ''}`;
  return groupPage(c, s, 'recording', 'Recording', body);
}

export async function recordingAction(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  await execute(c.form.get('do') === 'stop' ? stopRecording : startRecording, s.g, s.ctx, { group_id: s.head.id });
  return new Redirect(`/dashboard/groups/${enc(s.head.id)}/recording`);
}

export async function scenarioDownload(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const out = await executeRaw(getRecording, s.g, s.ctx, { group_id: s.head.id, format: 'scenario' });
  return new Download('scenario' in out ? out.scenario : '', 'application/yaml; charset=utf-8', `scenario-${s.head.id}.yaml`);
}
