import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { deleteSandbox } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class SandboxDelete extends PayctlCommand {
  static override description = 'Drop a sandbox and every row of it in one transaction (its keys stop working at once)';
  static override examples = ['<%= config.bin %> sandbox delete GROUP_ID'];
  static override args = { id: Args.string({ description: 'the sandbox (its group id)', required: true }) };

  async run(): Promise<{ group_id: string; deleted: true; rows: Record<string, number> }> {
    const { args, flags } = await this.parse(SandboxDelete);
    const p = await this.platform(flags.db);
    const result = await execute(deleteSandbox, p, contextFor(p, undefined), { group_id: args.id });
    const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
    this.log(`Deleted sandbox ${args.id} (${total} rows)`);
    return result;
  }
}
