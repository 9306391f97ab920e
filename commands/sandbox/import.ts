import { Args, Flags } from '@oclif/core';
import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { usage } from '../../src/cli/usage.js';
import { PayctlCommand } from '../../src/cli/base.js';
import { sandboxImported } from '../../src/render/platform.js';
import { importSandbox } from '../../src/services/sandboxes/import.js';
import type { ImportedSandbox } from '../../src/domain/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class SandboxImport extends PayctlCommand {
  static override description =
    'Make a new sandbox from an export file: new ids, new API keys and webhook secrets, the same clock; a broken file is refused with its line and rule';
  static override examples = ['<%= config.bin %> sandbox import sandbox.jsonl --json', '<%= config.bin %> sandbox import - --name "replay" < sandbox.jsonl'];
  static override args = { file: Args.string({ description: 'the file `payctl sandbox export` wrote (- for standard input)', required: true }) };
  static override flags = { name: Flags.string({ description: "the new sandbox's name [default: the exported sandbox's]" }) };

  async run(): Promise<ImportedSandbox> {
    const { args, flags } = await this.parse(SandboxImport);
    const p = await this.platform(flags.db);
    if (args.file !== '-') await access(args.file, constants.R_OK).catch(() => {
      throw usage(`cannot read ${args.file}: give the path of a file \`payctl sandbox export\` wrote, or - for stdin`);
    });
    const source = args.file === '-' ? process.stdin : createReadStream(args.file);
    // The command waits for every row (no answer budget): the bar shows how far it is.
    const sandbox = await execute(importSandbox, p, contextFor(p, undefined), { name: flags.name, file: source }, { progress: ttyProgress({ json: this.jsonEnabled() }) });
    this.log(sandboxImported(sandbox));
    return sandbox;
  }
}
