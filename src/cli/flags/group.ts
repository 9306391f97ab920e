// The one --group flag of commands that act on a group. When it is not given, the
// command base resolves it (src/config/profile.ts: PAYCTL_GROUP, then the profile's
// `group`); `fallback: 'first'` commands then take the database's first group, the
// others stop with a usage error saying how to give one.
import { Flags } from '@oclif/core';
import type { OptionFlag } from '@oclif/core/interfaces';

export type GroupFallback = 'required' | 'first';

/** Marks the flag for the command base (oclif keeps extra properties of a flag definition). */
export interface ProfileGroupFlag {
  profileGroup: GroupFallback;
}

/** Marks a flag in place and returns it with its own type (oclif infers flag values from it). */
function mark<T extends object>(flag: T, fallback: GroupFallback): T {
  (flag as unknown as ProfileGroupFlag).profileGroup = fallback;
  return flag;
}

/**
 * A command that needs a group. Not `required` for oclif: the default (PAYCTL_GROUP, the
 * profile) can supply it, so usage and help show it optional with the default noted, and
 * the command base stops with a usage error saying how to set one when nothing does.
 */
export const groupFlag = mark(
  // Typed as always present: the command base gives it the default or stops before run().
  Flags.string({ description: 'group id [default: PAYCTL_GROUP, else `payctl config set group`; needed when neither is set]' }) as unknown as OptionFlag<string>,
  'required',
);
/** A command that can work on the first group when none is named (report, dev seed). */
export const groupOrFirstFlag = mark(
  Flags.string({ description: 'group id [default: PAYCTL_GROUP, else `payctl config set group`, else the first group]' }),
  'first',
);

/** A --group that narrows what a command covers (key list, clock …); without it, every group. */
export const groupFilterFlag = (description: string) => Flags.string({ description });
