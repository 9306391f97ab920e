// Fault rules in a terminal: one line per rule saying what it matches, how often and what it does.
import type { ApiFaultRule, WebhookFaultRule } from '../domain/faults.js';
import { table } from './table.js';

export function faultTarget(r: Pick<ApiFaultRule, 'operation' | 'method' | 'path'>): string {
  return r.operation ?? [r.method ?? '*', r.path ?? ''].join(' ');
}

export function faultSchedule(r: Pick<ApiFaultRule, 'rate' | 'first' | 'every' | 'count' | 'from' | 'until'>): string {
  const parts = [r.rate !== undefined ? `rate ${r.rate}` : r.first !== undefined ? `first ${r.first}` : r.every !== undefined ? `every ${r.every}` : 'every call'];
  if (r.count !== undefined) parts.push(`count ${r.count}`);
  if (r.from !== undefined) parts.push(`from ${r.from}`);
  if (r.until !== undefined) parts.push(`until ${r.until}`);
  return parts.join(', ');
}

export function faultAction(r: Pick<ApiFaultRule, 'action' | 'ms' | 'ms_max' | 'status' | 'retry_after' | 'response_code'>): string {
  switch (r.action) {
    case 'latency':
      return `latency ${r.ms}${r.ms_max !== undefined ? `–${r.ms_max}` : ''}ms`;
    case 'error':
      return `error ${r.status}${r.retry_after !== undefined ? ` (Retry-After ${r.retry_after})` : ''}`;
    case 'timeout_after_commit':
      return `timeout after commit${r.ms ? ` (held ${r.ms}ms)` : ''}`;
    case 'decline':
    case 'processor_unavailable':
      return `${r.action} ${r.response_code ?? (r.action === 'decline' ? '' : '91')}`.trim();
    default:
      return r.action;
  }
}

export function faultRuleTable(rules: ApiFaultRule[]): string {
  if (rules.length === 0) return 'No fault rules: this group\'s calls are answered normally.';
  return table(
    ['ID', 'Applies to', 'When', 'Action', 'Seed', 'Calls', 'Fired'],
    rules.map((r) => [r.id, faultTarget(r), faultSchedule(r), faultAction(r), r.seed, r.calls, r.fired]),
  );
}

export function webhookFaultAction(r: Pick<WebhookFaultRule, 'action' | 'delay' | 'window'>): string {
  if (r.action === 'delay') return `delay ${r.delay}`;
  if (r.action === 'reorder') return `reorder within ${r.window}`;
  return r.action.replace('_', ' ');
}

export function webhookFaultRuleTable(rules: WebhookFaultRule[]): string {
  if (rules.length === 0) return "No fault rules: this endpoint's deliveries are sent normally.";
  return table(
    ['ID', 'When', 'Action', 'Seed', 'Attempts', 'Fired'],
    rules.map((r) => [r.id, faultSchedule(r), webhookFaultAction(r), r.seed, r.calls, r.fired]),
  );
}
