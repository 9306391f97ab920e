// Which linked account and processor a command works on: the flag when given, else the
// group's first one (a demo group has exactly one of each).
import { Flags } from '@oclif/core';
import { contextFor } from '../../services/context.js';
import { execute } from '../../services/use-case.js';
import { AppError } from '../../errors.js';
import type { Platform } from '../../services/platform.js';
import { listLinkedAccounts, listProcessors } from '../../services/groups/groups.js';
import { groupFlag } from './group.js';

export const linkedAccountFlag = Flags.string({ description: "linked account id [default: the group's first linked account]" });

/** --group and --linked-account, for the commands under a linked account (plans, subscriptions). */
export const scopeFlags = { group: groupFlag, 'linked-account': linkedAccountFlag };

/** The linked account of --linked-account, or the group's first one. */
export async function linkedAccountOrDefault(p: Platform, groupId: string, flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const [first] = await execute(listLinkedAccounts, p, contextFor(p, groupId), {});
  if (!first) throw new AppError(400, 'validation_error', `group ${groupId} has no linked account: create one with \`payctl linked-account create\`, or pass --linked-account`);
  return first.id;
}

/** The processor of --processor, or the group's first processor. */
export async function processorOrDefault(p: Platform, groupId: string, flag: string | undefined): Promise<string | undefined> {
  if (flag) return flag;
  return (await execute(listProcessors, p, contextFor(p, groupId), {}))[0]?.id;
}
