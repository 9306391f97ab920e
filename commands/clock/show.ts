import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { clockShown } from '../../src/render/platform.js';
import { groupFilterFlag } from '../../src/cli/flags/group.js';
import { showPlatformClock, type ClockState } from '../../src/services/clock/clock-control.js';
import { showGroupClock, type GroupClockState } from '../../src/services/sandboxes/sandboxes.js';

export default class ClockShow extends PayctlCommand {
  static override description = "Show the platform clock (real time plus an offset, shared by CLI and server), or a group's clock";
  static override examples = ['<%= config.bin %> clock show', '<%= config.bin %> clock show --group GROUP_ID'];
  static override flags = {
    group: groupFilterFlag("this group's clock: the platform clock plus the group's own offset"),
  };

  async run(): Promise<ClockState | GroupClockState> {
    const { flags } = await this.parse(ClockShow);
    const p = await this.platform(flags.db);
    if (flags.group) {
      const state = await execute(showGroupClock, p, contextFor(p, flags.group), { group_id: flags.group });
      this.log(clockShown(state, flags.group));
      return state;
    }
    const state = await execute(showPlatformClock, p, contextFor(p, undefined), {});
    this.log(clockShown(state));
    return state;
  }
}
