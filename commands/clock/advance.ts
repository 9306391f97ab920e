import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { advanceClock, type ClockState } from '../../src/services/clock-control.js';
import { parseDuration } from '../../src/services/clock.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class ClockAdvance extends PayctlCommand {
  static override description = 'Move the platform clock forward and run the work that fell due (settlement, billing, …)';
  static override examples = ['<%= config.bin %> clock advance 1d', '<%= config.bin %> clock advance 30d', '<%= config.bin %> clock advance 12h'];
  static override args = { duration: Args.string({ description: 'how far: 30d, 12h, 90m, 1d12h', required: true }) };

  async run(): Promise<ClockState & { work: Record<string, number> }> {
    const { args, flags } = await this.parse(ClockAdvance);
    let ms: number;
    try {
      ms = parseDuration(args.duration);
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const state = await advanceClock(await this.platform(flags.db), ms, ttyProgress());
    this.log(`Clock now ${state.now}`);
    for (const [job, n] of Object.entries(state.work)) if (n > 0) this.log(`  ${job}: ${n}`);
    return state;
  }
}
