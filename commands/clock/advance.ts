import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { clockMoved } from '../../src/render/platform.js';
import { usage } from '../../src/cli/usage.js';
import { groupFilterFlag } from '../../src/cli/flags/group.js';
import { advancePlatformClock, type ClockState } from '../../src/services/clock/clock-control.js';
import { moveGroupClock, type GroupClockState } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { parseDuration } from '../../src/domain/time.js';
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
    try {
      parseDuration(args.duration);
    } catch (err) {
      throw usage((err as Error).message);
    }
    const p = await this.platform(flags.db);
    // The command waits for all the work (no answer budget): the bar shows how far it is.
    const io = { progress: ttyProgress({ json: this.jsonEnabled() }) };
    const state = flags.group
      ? await execute(moveGroupClock, p, contextFor(p, flags.group), { group_id: flags.group, advance: args.duration }, io)
      : await execute(advancePlatformClock, p, contextFor(p, undefined), { duration: args.duration }, io);
    this.log(clockMoved(state, flags.group));
    return state;
  }
}
