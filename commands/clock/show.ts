import { PayctlCommand } from '../../src/cli/base.js';
import { showClock, type ClockState } from '../../src/services/clock-control.js';

export default class ClockShow extends PayctlCommand {
  static override description = 'Show the platform clock (real time plus an offset, shared by CLI and server)';
  static override examples = ['<%= config.bin %> clock show'];

  async run(): Promise<ClockState> {
    const { flags } = await this.parse(ClockShow);
    const state = await showClock(await this.platform(flags.db));
    this.log(`${state.now} (offset ${Math.round(state.offset_ms / 1000)}s from real time)`);
    return state;
  }
}
