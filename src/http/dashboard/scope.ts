// A group page acts as the operator for that group: the platform seen from the group (its
// own clock), a context holding every permission kind (as a command's --group does), and
// the head the layout shows. Nothing here reads the store but through services.
import { AppError } from '../../errors.js';
import { contextFor, type GroupContext } from '../../services/context.js';
import { forGroup, type Platform } from '../../services/platform.js';
import { getGroup, listLinkedAccounts } from '../../services/groups/groups.js';
import { showSandbox } from '../../services/sandboxes/sandboxes.js';
import { execute } from '../../services/use-case.js';
import type { GroupHead } from './layout.js';

export interface GroupScope {
  g: Platform;
  ctx: GroupContext;
  head: GroupHead;
}

export async function groupScope(p: Platform, groupId: string): Promise<GroupScope> {
  const group = await execute(getGroup, p, contextFor(p, undefined), { group_id: groupId });
  const g = await forGroup(p, group.id);
  await g.clock.refresh();
  const ctx = contextFor(g, group.id);
  const sandbox = await execute(showSandbox, g, ctx, { group_id: group.id }).then(
    () => true,
    (err: unknown) => {
      if (err instanceof AppError && err.status === 404) return false;
      throw err;
    },
  );
  return { g, ctx, head: { id: group.id, name: group.name, sandbox } };
}

/** The group's linked accounts (transactions, plans and subscriptions are listed per account). */
export const linkedAccountsOf = (s: GroupScope) => execute(listLinkedAccounts, s.g, s.ctx, {});

/** An AppError that is a 404 becomes `undefined` (a lookup that may miss). */
export async function orMissing<T>(run: Promise<T>): Promise<T | undefined> {
  try {
    return await run;
  } catch (err) {
    if (err instanceof AppError && (err.status === 404 || err.type === 'validation_error')) return undefined;
    throw err;
  }
}
