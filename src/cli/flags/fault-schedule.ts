// How often and for how long a fault rule fires: the same flags on `fault add` and
// `webhook fault add` (the domain's scheduleFields), and the body fields they give.
import { Flags } from '@oclif/core';

/** A number flag kept as typed when it is not one, so the rule's schema names it. */
export const numberOrText = (v: string | undefined): number | string | undefined =>
  v === undefined ? undefined : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;

/** The schedule flags; `one` names what a rule counts, in the singular ("matching call", "attempt"). */
export const scheduleFlags = (one: string) => ({
  rate: Flags.string({ description: `fire on this share of ${one}s (0–1), drawn from the seed` }),
  first: Flags.string({ description: `fire on the first N ${one}s` }),
  every: Flags.string({ description: `fire on every Nth ${one}` }),
  count: Flags.string({ description: 'stop after firing N times' }),
  from: Flags.string({ description: "active from this time of the group's clock (RFC 3339)" }),
  until: Flags.string({ description: "active until this time of the group's clock (RFC 3339)" }),
  seed: Flags.string({ description: 'seed of the draws (0–4294967295) [default: generated, printed]' }),
});

type ScheduleFlagValues = { [K in keyof ReturnType<typeof scheduleFlags>]?: string };

/** The rule's schedule fields from those flags (unset ones left out by the caller's filter). */
export const scheduleBody = (f: ScheduleFlagValues) => ({
  rate: numberOrText(f.rate),
  first: numberOrText(f.first),
  every: numberOrText(f.every),
  count: numberOrText(f.count),
  from: f.from,
  until: f.until,
  seed: numberOrText(f.seed),
});
