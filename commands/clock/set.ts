import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { clockMoved } from '../../src/render/platform.js';
import { usage } from '../../src/cli/usage.js';
import { groupFilterFlag } from '../../src/cli/flags/group.js';
import { setPlatformClock, type ClockState } from '../../src/services/clock/clock-control.js';
import { moveGroupClock, type GroupClockState } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { parseInstant } from '../../src/domain/time.js';
import { ttyProgress } from '../../src/cli/progress.js';
import { CLOCK_MODES, MAX_CLOCK_RATE } from '../../src/domain/clock-modes.js';

export default class ClockSet extends PayctlCommand {
  static override description =
    "Set the clock to a time and run the work that fell due: the platform clock, or with --group that group only (never backwards); with --mode, the group clock's mode";
  static override examples = [
    '<%= config.bin %> clock set 2027-01-01T00:00:00Z',
    '<%= config.bin %> clock set 2027-01-01T00:00:00Z --group GROUP_ID',
    '<%= config.bin %> clock set --group GROUP_ID --mode frozen',
    '<%= config.bin %> clock set --group GROUP_ID --mode accelerated --rate 60',
  ];
  static override args = { time: Args.string({ description: 'RFC 3339 time (or a date YYYY-MM-DD: midnight UTC), years 1970 to 9999; at most 10 years ahead (optional with --mode)' }) };
  static override flags = {
    group: groupFilterFlag("set only this group's clock and run only its due work"),
    mode: Flags.string({ description: "the group clock's mode from now on (docs/clock.md): running, frozen or accelerated", options: [...CLOCK_MODES] }),
    rate: Flags.integer({ description: `with --mode accelerated: sandbox seconds per real second (2 to ${MAX_CLOCK_RATE})` }),
  };

  async run(): Promise<(ClockState | GroupClockState) & { work: Record<string, number> }> {
    const { args, flags } = await this.parse(ClockSet);
    if (args.time === undefined && flags.mode === undefined) throw usage('give a TIME (or --mode with --group)');
    if ((flags.mode !== undefined || flags.rate !== undefined) && !flags.group) throw usage('--mode and --rate change a group clock: add --group (the platform clock always runs)');
    if (flags.rate !== undefined && flags.mode !== 'accelerated') throw usage('--rate goes with --mode accelerated');
    // The command waits for all the work (no answer budget): the bar shows how far it is.
    const io = { progress: ttyProgress({ json: this.jsonEnabled() }) };
    if (flags.group) {
      const p = await this.platform(flags.db);
      const body = { group_id: flags.group, set: args.time, mode: flags.mode, rate: flags.rate };
      const state = await execute(moveGroupClock, p, contextFor(p, flags.group), body, io);
      this.log(clockMoved(state, flags.group));
      return state;
    }
    const time = args.time!;
    try {
      parseInstant(time);
    } catch (err) {
      throw usage((err as Error).message);
    }
    const p = await this.platform(flags.db);
    const state = await execute(setPlatformClock, p, contextFor(p, undefined), { time }, io);
    this.log(clockMoved(state));
    return state;
  }
}
