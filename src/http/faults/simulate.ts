// The one-off `Payctl-Simulate` header (docs/faults.md): one fault for one call of a
// sandbox, read and checked here (at most 100 characters, sandboxes only, a known fault)
// and handed to the injector as the effect it asks for.
import { validationError } from '../../errors.js';
import { parseDuration } from '../../domain/time.js';
import { CHARGING, DECLINE_CODES, ERROR_STATUSES, forcedOutcome, MAX_LATENCY_MS, type FaultEffect, type FaultOperation, type InjectedFault } from '../../domain/faults.js';
import { simulateAllowed } from '../../services/faults/injector.js';
import type { Platform } from '../../services/platform.js';

export const SIMULATE_HEADER = 'Payctl-Simulate';

/**
 * `Payctl-Simulate`: one fault for one call. `timeout_after_commit`, `error=503`,
 * `error=429;retry_after=2`, `latency=2s` (or `250ms`), `decline=51`, `avs_mismatch`,
 * `cvv_mismatch`. Throws a message naming the rule broken.
 */
export function parseSimulate(value: string, operation: FaultOperation | undefined): FaultEffect {
  const [head = '', ...rest] = value.split(';').map((s) => s.trim());
  const [name = '', arg] = head.split('=').map((s) => s.trim());
  const params = Object.fromEntries(rest.map((p) => p.split('=').map((s) => s.trim()) as [string, string]));
  const charging = () => {
    if (!CHARGING.includes(operation as FaultOperation)) throw new Error(`${name} applies only to ${CHARGING.join(', ')} calls`);
  };
  switch (name) {
    case 'timeout_after_commit':
      return { action: 'timeout_after_commit', ms: 0 };
    case 'error': {
      const status = Number(arg);
      if (!(ERROR_STATUSES as readonly number[]).includes(status)) throw new Error(`error=<status>: status must be one of ${ERROR_STATUSES.join(', ')}`);
      const retry = params.retry_after ?? (status === 429 ? '1' : undefined);
      if (retry !== undefined && !/^\d{1,5}$/.test(retry)) throw new Error('retry_after must be a whole number of seconds');
      return { action: 'error', status, ...(retry !== undefined ? { retry_after: Number(retry) } : {}) };
    }
    case 'latency': {
      const ms = parseLatency(arg ?? '');
      if (ms === undefined || ms > MAX_LATENCY_MS) throw new Error(`latency=<duration>: like 250ms or 2s, at most ${MAX_LATENCY_MS / 1000}s`);
      return { action: 'latency', ms };
    }
    case 'decline':
      charging();
      if (arg === undefined || !(arg in DECLINE_CODES)) throw new Error(`decline=<code>: code must be one of ${Object.keys(DECLINE_CODES).join(', ')}`);
      return { action: 'decline', outcome: forcedOutcome('decline', arg) };
    case 'avs_mismatch':
    case 'cvv_mismatch':
      charging();
      return { action: name, outcome: forcedOutcome(name) };
    default:
      throw new Error('must be timeout_after_commit, error=<status>, latency=<duration>, decline=<code>, avs_mismatch or cvv_mismatch');
  }
}

function parseLatency(text: string): number | undefined {
  const ms = /^(\d{1,6})ms$/.exec(text);
  if (ms) return Number(ms[1]);
  try {
    return parseDuration(text);
  } catch {
    return undefined;
  }
}

/** The fault a `Payctl-Simulate` header asks for on a call of `groupId`, refused with a 400 naming the header when it may not. */
export async function simulatedFault(p: Platform, groupId: string, value: string, operation: FaultOperation | undefined): Promise<InjectedFault> {
  if (value.length > 100) throw validationError([{ path: SIMULATE_HEADER, message: 'must be at most 100 characters' }]);
  if (!(await simulateAllowed(p, groupId))) throw validationError([{ path: SIMULATE_HEADER, message: 'is allowed only on sandboxes (groups made by POST /api/v1/sandboxes)' }]);
  try {
    return { effect: parseSimulate(value, operation), rule: 'simulate' };
  } catch (err) {
    throw validationError([{ path: SIMULATE_HEADER, message: (err as Error).message }]);
  }
}
