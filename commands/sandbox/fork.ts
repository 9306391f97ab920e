import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { sandboxForked } from '../../src/render/platform.js';
import { forkSandbox } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class SandboxFork extends PayctlCommand {
  static override description =
    'Copy a sandbox (every row, new ids, same relationships and clock) into a new sandbox with its own keys; a large copy shows its progress on a terminal';
  static override examples = ['<%= config.bin %> sandbox fork GROUP_ID --json', '<%= config.bin %> sandbox fork GROUP_ID --name "test 42"'];
  static override args = { id: Args.string({ description: 'the sandbox to copy (its group id)', required: true }) };
  static override flags = { name: Flags.string({ description: 'name of the copy [default: the original\'s with " (fork)"]' }) };

  async run(): Promise<Awaited<ReturnType<typeof forkSandbox.run>>> {
    const { args, flags } = await this.parse(SandboxFork);
    const p = await this.platform(flags.db);
    // The command waits for the whole copy (no answer budget): the bar shows how far it is.
    const forked = await execute(forkSandbox, p, contextFor(p, undefined), { group_id: args.id, name: flags.name }, { progress: ttyProgress({ json: this.jsonEnabled() }) });
    this.log(sandboxForked(forked, args.id));
    return forked;
  }
}
