import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { forkSandbox } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';

export default class SandboxFork extends PayctlCommand {
  static override description = 'Copy a sandbox (every row, new ids, same relationships and clock) into a new sandbox with its own keys';
  static override examples = ['<%= config.bin %> sandbox fork GROUP_ID --json', '<%= config.bin %> sandbox fork GROUP_ID --name "test 42"'];
  static override args = { id: Args.string({ description: 'the sandbox to copy (its group id)', required: true }) };
  static override flags = { name: Flags.string({ description: 'name of the copy [default: the original\'s with " (fork)"]' }) };

  async run(): Promise<Awaited<ReturnType<typeof forkSandbox>>> {
    const { args, flags } = await this.parse(SandboxFork);
    const p = await this.platform(flags.db);
    const fork = await forkSandbox(p, contextFor(p, undefined), args.id, { name: flags.name });
    const total = Object.values(fork.rows).reduce((a, b) => a + b, 0);
    this.log(`Sandbox ${fork.group_id} (${fork.name}): ${total} rows copied from ${args.id}, clock ${fork.clock}`);
    for (const [perm, key] of Object.entries(fork.keys)) this.log(`  ${perm.padEnd(20)} ${key}`);
    return fork;
  }
}
