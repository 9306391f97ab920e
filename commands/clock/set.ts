import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { setClock, type ClockState } from '../../src/services/clock-control.js';
import { parseInstant } from '../../src/services/clock.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class ClockSet extends PayctlCommand {
  static override description = 'Set the platform clock to a time and run the work that fell due';
  static override examples = ['<%= config.bin %> clock set 2027-01-01T00:00:00Z'];
  static override args = { time: Args.string({ description: 'RFC 3339 time', required: true }) };

  async run(): Promise<ClockState & { work: Record<string, number> }> {
    const { args, flags } = await this.parse(ClockSet);
    let to: Date;
    try {
      to = parseInstant(args.time);
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const state = await setClock(await this.platform(flags.db), to, ttyProgress());
    this.log(`Clock now ${state.now}`);
    return state;
  }
}
