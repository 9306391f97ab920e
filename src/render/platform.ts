// Human output of the platform's own objects: groups, processors, linked accounts, API
// keys, signup forms, sandboxes and the clock. A clock time is shown local-readable with
// its exact RFC 3339 value beside it (the value `clock set` takes).
import type { Group, LinkedAccount, Processor } from '../domain/groups.js';
import type { SignupForm } from '../domain/onboarding/response.js';
import type { SandboxSummary } from '../domain/sandboxes.js';
import type { ApiKey } from '../domain/groups.js';
import type { SeedResult } from '../dev/seed.js';
import { keyValues, table } from './table.js';
import { dateTime } from './format.js';

export const groupTable = (groups: Group[]): string =>
  table(['id', { title: 'name', truncate: 12 }, 'pricing', 'status', 'created'], groups.map((g) => [g.id, g.name, g.pricing, g.status, dateTime(g.created_at)]));

export const processorTable = (rows: Processor[]): string => table(['id', 'name', 'type'], rows.map((r) => [r.id, r.name, r.type]));

export const linkedAccountTable = (rows: LinkedAccount[]): string => table(['id', 'name', 'processor'], rows.map((r) => [r.id, r.name, r.processor_id]));

export const keyTable = (keys: ApiKey[]): string =>
  table(
    [{ title: 'id', priority: 6 }, { title: 'prefix', priority: 4 }, { title: 'group', priority: 2 }, { title: 'permissions', priority: 5, truncate: 16 }, { title: 'created', priority: 3 }, { title: 'revoked', priority: 1 }],
    keys.map((k) => [k.id, `${k.prefix}…`, k.group_id, k.permissions.join(', '), dateTime(k.created_at), k.revoked_at ? dateTime(k.revoked_at) : '']),
  );

/** Keys shown once, one line per permission kind. */
export const keyLines = (keys: Record<string, string>): string => Object.entries(keys).map(([perm, key]) => `  ${perm.padEnd(20)} ${key}`).join('\n');

export const signupFormTable = (forms: SignupForm[]): string => table(['id', 'name', 'created'], forms.map((f) => [f.id, f.name, dateTime(f.created_at)]));

export const sandboxTable = (rows: SandboxSummary[]): string =>
  table(['group', { title: 'name', truncate: 12 }, 'status', 'clock', 'mode', 'created'], rows.map((s) => [s.group_id, s.name, s.status, clockTime(s.clock), modeWords({ mode: s.clock_mode, rate: s.clock_rate }).trim().replace(/^\(|\)$/g, ''), dateTime(s.created_at)]));

/** A clock's time: "2027-01-01 00:00 UTC (2027-01-01T00:00:00.000Z)". */
export const clockTime = (iso: string): string => `${dateTime(iso)} (${iso})`;

/** A clock's mode in words: `frozen`, `accelerated ×60` (nothing for the platform clock, which always runs). */
const modeWords = (state: { mode?: string; rate?: number }): string => (state.mode === undefined ? '' : state.mode === 'accelerated' ? ` (accelerated ×${state.rate})` : ` (${state.mode})`);

/** What a clock move did: the new time and the work that fell due. */

export function clockMoved(state: { now: string; work?: Record<string, number>; mode?: string; rate?: number }, groupId?: string): string {
  const lines = [`${groupId ? `Clock of group ${groupId}` : 'Clock'} now ${clockTime(state.now)}${groupId ? modeWords(state) : ''}`];
  for (const [job, n] of Object.entries(state.work ?? {})) if (n > 0) lines.push(`  ${job}: ${n}`);
  return lines.join('\n');
}

/** The clock now, and how far it is from what it runs on (real time, or the platform clock for a group). */
export const clockShown = (state: { now: string; offset_ms: number; mode?: string; rate?: number }, groupId?: string): string =>
  groupId && state.mode !== undefined && state.mode !== 'running'
    ? `${clockTime(state.now)}; group ${groupId}: ${modeWords(state).trim().replace(/^\(|\)$/g, '')}`
    : `${clockTime(state.now)}; ${groupId ? `group ${groupId}: ` : ''}${Math.round(state.offset_ms / 1000)}s from ${groupId ? 'the platform clock' : 'real time'}${groupId ? ' (running)' : ''}`;

/** A new sandbox (or a demo group): its ids, one key per permission, the ids of its demo data. */
export function sandboxCreated(s: { group_id: string; name: string; clock: string; clock_mode?: string; clock_rate?: number; processor_id: string; linked_account_id: string; keys: Record<string, string>; webhook_secret?: unknown }): string {
  return [
    `Sandbox ${s.group_id} (${s.name}), clock ${clockTime(s.clock)}${modeWords({ mode: s.clock_mode, rate: s.clock_rate })}`,
    `Processor:       ${s.processor_id}`,
    `Linked account:  ${s.linked_account_id}`,
    ...(typeof s.webhook_secret === 'string' ? [`Webhooks collected in GET /api/v1/sandboxes/${s.group_id}/inbox, signed with (shown once): ${s.webhook_secret}`] : []),
    'API keys (one per permission; shown once):',
    keyLines(s.keys),
  ].join('\n');
}

export function sandboxForked(
  fork: { group_id: string; name: string; clock: string; keys: Record<string, string>; rows?: Record<string, number>; fork?: { rows_copied: number; rows_total: number } },
  from: string,
): string {
  const copied = fork.fork
    ? `still forking, ${fork.fork.rows_copied} of ${fork.fork.rows_total} rows copied`
    : fork.rows
      ? `${Object.values(fork.rows).reduce((a, b) => a + b, 0)} rows copied`
      : 'copied';
  return `Sandbox ${fork.group_id} (${fork.name}): ${copied} from ${from}, clock ${clockTime(fork.clock)}\n${keyLines(fork.keys)}`;
}

export function sandboxImported(s: { group_id: string; name: string; clock: string; keys: Record<string, string>; rows: Record<string, number>; imported_from: { group_id: string }; webhook_secrets: Record<string, string> }): string {
  const rows = Object.values(s.rows).reduce((a, b) => a + b, 0);
  const secrets = Object.entries(s.webhook_secrets).map(([id, secret]) => `  ${id}  ${secret}`);
  return [
    `Sandbox ${s.group_id} (${s.name}): ${rows} rows imported from ${s.imported_from.group_id}, clock ${clockTime(s.clock)}`,
    keyLines(s.keys),
    ...(secrets.length ? ['Webhook endpoint secrets (new; shown once):', ...secrets] : []),
  ].join('\n');
}

/** What `dev seed` loaded and how fast. */
export function seedSummary(r: SeedResult): string {
  return keyValues([
    ['group', r.group_id],
    ['transactions', r.transactions.toLocaleString('en-US')],
    ['settlement batches', r.settlement_batches],
    ['customers', r.customers],
    ['from', dateTime(r.from)],
    ['to', dateTime(r.to)],
    ['took', `${(r.elapsed_ms / 1000).toFixed(1)} s (${r.rows_per_second.toLocaleString('en-US')} rows/s)`],
  ]);
}
