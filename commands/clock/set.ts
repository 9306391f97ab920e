import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { clockMoved } from '../../src/render/platform.js';
import { usage } from '../../src/cli/usage.js';
import { groupFilterFlag } from '../../src/cli/flags/group.js';
import { setClock, type ClockState } from '../../src/services/clock/clock-control.js';
import { moveClock, moveGroupClock, type GroupClockState } from '../../src/services/sandboxes/sandboxes.js';
import { parseOrThrow, validationError } from '../../src/errors.js';
import { contextFor } from '../../src/services/context.js';
import { clockMoveTarget, parseInstant } from '../../src/domain/time.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class ClockSet extends PayctlCommand {
  static override description = 'Set the clock to a time and run the work that fell due: the platform clock, or with --group that group only (never backwards)';
  static override examples = ['<%= config.bin %> clock set 2027-01-01T00:00:00Z', '<%= config.bin %> clock set 2027-01-01T00:00:00Z --group GROUP_ID'];
  static override args = { time: Args.string({ description: 'RFC 3339 time (or a date YYYY-MM-DD: midnight UTC), years 1970 to 9999; at most 10 years ahead', required: true }) };
  static override flags = {
    group: groupFilterFlag("set only this group's clock and run only its due work"),
  };

  async run(): Promise<(ClockState | GroupClockState) & { work: Record<string, number> }> {
    const { args, flags } = await this.parse(ClockSet);
    let to: Date;
    try {
      to = parseInstant(args.time);
    } catch (err) {
      throw usage((err as Error).message);
    }
    const p = await this.platform(flags.db);
    if (!flags.group) {
      // The platform clock keeps the rules of a group's clock: never backwards, at most 10 years per move.
      await p.clock.refresh();
      const move = clockMoveTarget(p.clock.now().getTime(), { set: args.time }, { advance: 'duration', set: 'time' });
      if (!move.ok) throw validationError([{ path: move.field, message: move.message }]);
    }
    const state = flags.group ? await moveClock(p, contextFor(p, flags.group), parseOrThrow(moveGroupClock.input, { group_id: flags.group, set: args.time }), ttyProgress({ json: this.jsonEnabled() })) : await setClock(p, to, ttyProgress({ json: this.jsonEnabled() }));
    this.log(clockMoved(state, flags.group));
    return state;
  }
}
