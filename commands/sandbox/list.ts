import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { listSandboxes } from '../../src/services/sandboxes/sandboxes.js';
import type { SandboxSummary } from '../../src/domain/sandboxes.js';
import { sandboxTable } from '../../src/render/platform.js';

export default class SandboxList extends PayctlCommand {
  static override description = 'List sandboxes with their clocks';
  static override examples = ['<%= config.bin %> sandbox list', '<%= config.bin %> sandbox list --json'];

  async run(): Promise<SandboxSummary[]> {
    const { flags } = await this.parse(SandboxList);
    const p = await this.platform(flags.db);
    const { data } = await execute(listSandboxes, p, contextFor(p, undefined), {});
    this.log(sandboxTable(data));
    return data;
  }
}
