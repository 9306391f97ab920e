// The sandbox a `payctl scenario run` acts in, and how it is reached. A fresh one per
// file: through the API with the sandbox admin token when one is given (any server,
// --url), else made on the database the local server runs on (the server sees it at
// once). With --group, an existing group with a key made for the run and revoked after
// (as `payctl trigger` does), so no key is ever written into a scenario.
import { PERMISSIONS } from '../domain/permissions.js';
import type { Scenario } from '../domain/scenarios.js';
import { contextFor } from '../services/context.js';
import { createKey, revokeKey } from '../services/groups/keys.js';
import { listLinkedAccounts, listProcessors } from '../services/groups/groups.js';
import type { Platform } from '../services/platform.js';
import { createSandbox } from '../services/sandboxes/sandboxes.js';
import { seedDemoInGroup } from './demo.js';
import { execute } from '../services/use-case.js';
import { createSandboxOverApi, handleOf, type SandboxHandle } from './scenario-run.js';
import { TEST_CLOCK } from '../lib/test-clock.js';

export interface RunSandbox {
  handle: SandboxHandle;
  /** Undo what the run made for itself (the run's key with --group). */
  release(): Promise<void>;
}

/** A scenario's sandbox clock: frozen, at the file's start time or the test anchor (docs/scenarios.md). */
export const scenarioClock = (start: string | undefined) => ({ ...TEST_CLOCK, ...(start ? { time: start } : {}) });

export async function sandboxForRun(
  opts: { url: string; adminToken?: string; group?: string; platform: () => Promise<Platform> },
  scenario: Scenario,
): Promise<RunSandbox> {
  if (opts.group) {
    const p = await opts.platform();
    const ctx = contextFor(p, opts.group);
    const [processor] = await execute(listProcessors, p, ctx, {});
    const [account] = await execute(listLinkedAccounts, p, ctx, {});
    if (!processor || !account) throw new Error(`group ${opts.group} has no processor or linked account: a scenario needs both (payctl sandbox create makes a group that has them)`);
    const key = await execute(createKey, p, ctx, { permissions: [...PERMISSIONS], name: `payctl scenario run: ${scenario.name}`.slice(0, 100) });
    const ids = { group_id: opts.group, processor_id: processor.id, linked_account_id: account.id };
    return {
      handle: { ...ids, keys: Object.fromEntries(PERMISSIONS.map((perm) => [perm, key.key])), demo: ids },
      release: async () => void (await execute(revokeKey, p, contextFor(p, undefined), { key_id: key.id })),
    };
  }
  if (opts.adminToken) return { handle: await createSandboxOverApi(opts.url, opts.adminToken, scenario.sandbox, scenario.name), release: async () => {} };
  const p = await opts.platform();
  const spec = scenario.sandbox ?? {};
  const made = await execute(createSandbox(seedDemoInGroup), p, contextFor(p, undefined), { name: spec.name ?? scenario.name.slice(0, 100), demo: spec.demo, clock: scenarioClock(spec.clock) });
  return { handle: handleOf(made as unknown as Record<string, unknown>), release: async () => {} };
}
