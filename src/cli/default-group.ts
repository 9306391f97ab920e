// The first group a newcomer makes becomes the profile's default group, so that every
// later command works without --group (docs/decisions.md#cli-conventions). Used by
// `init --demo` and `group create`.
import { adoptDefaultGroup } from '../config/profile.js';
import { getGroup } from '../services/groups/groups.js';
import { contextFor } from '../services/context.js';
import { execute } from '../services/use-case.js';
import type { Platform } from '../services/platform.js';

/** The line to print when `groupId` became the default (undefined when a default stays). */
export async function makeDefaultGroupIfNone(p: Platform, groupId: string): Promise<string | undefined> {
  const exists = (id: string) => execute(getGroup, p, contextFor(p, undefined), { group_id: id }).then(() => true, () => false);
  const file = await adoptDefaultGroup(p.dataDir, groupId, exists);
  return file ? `Default group:   ${groupId} (saved in ${file}; change it with \`payctl config set group GROUP_ID\`)` : undefined;
}
