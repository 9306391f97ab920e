import { PayctlCommand } from '../../src/cli/base.js';
import { listSandboxes } from '../../src/services/sandboxes/sandboxes.js';
import type { SandboxSummary } from '../../src/domain/sandboxes.js';
import { sandboxTable } from '../../src/render/platform.js';

export default class SandboxList extends PayctlCommand {
  static override description = 'List sandboxes with their clocks';
  static override examples = ['<%= config.bin %> sandbox list', '<%= config.bin %> sandbox list --json'];

  async run(): Promise<SandboxSummary[]> {
    const { flags } = await this.parse(SandboxList);
    const { data } = await listSandboxes(await this.platform(flags.db));
    this.log(sandboxTable(data));
    return data;
  }
}
