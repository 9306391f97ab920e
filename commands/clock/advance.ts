import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { clockMoved } from '../../src/render/platform.js';
import { usage } from '../../src/cli/usage.js';
import { groupFilterFlag } from '../../src/cli/flags/group.js';
import { advanceClock, type ClockState } from '../../src/services/clock/clock-control.js';
import { moveClock, moveGroupClock, type GroupClockState } from '../../src/services/sandboxes/sandboxes.js';
import { parseOrThrow, validationError } from '../../src/errors.js';
import { contextFor } from '../../src/services/context.js';
import { clockMoveTarget, parseDuration } from '../../src/domain/time.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class ClockAdvance extends PayctlCommand {
  static override description =
    'Move the clock forward and run the work that fell due (settlement, billing, …): every group, or with --group that group only';
  static override examples = [
    '<%= config.bin %> clock advance 1d',
    '<%= config.bin %> clock advance 30d',
    '<%= config.bin %> clock advance 30d --group GROUP_ID',
  ];
  static override args = { duration: Args.string({ description: 'how far: 30d, 12h, 90m, 1d12h', required: true }) };
  static override flags = {
    group: groupFilterFlag("move only this group's clock and run only its due work"),
  };

  async run(): Promise<(ClockState | GroupClockState) & { work: Record<string, number> }> {
    const { args, flags } = await this.parse(ClockAdvance);
    let ms: number;
    try {
      ms = parseDuration(args.duration);
    } catch (err) {
      throw usage((err as Error).message);
    }
    const p = await this.platform(flags.db);
    if (!flags.group) {
      // The platform clock keeps the rules of a group's clock: at most 10 years per move.
      await p.clock.refresh();
      const move = clockMoveTarget(p.clock.now().getTime(), { advance: args.duration }, { advance: 'duration', set: 'time' });
      if (!move.ok) throw validationError([{ path: move.field, message: move.message }]);
    }
    const state = flags.group
      ? await moveClock(p, contextFor(p, flags.group), parseOrThrow(moveGroupClock.input, { group_id: flags.group, advance: args.duration }), ttyProgress({ json: this.jsonEnabled() }))
      : await advanceClock(p, ms, ttyProgress({ json: this.jsonEnabled() }));
    this.log(clockMoved(state, flags.group));
    return state;
  }
}
