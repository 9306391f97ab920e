import { Args, Flags } from '@oclif/core';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { PayctlCommand } from '../../src/cli/base.js';
import { usage } from '../../src/cli/usage.js';
import { exportSandbox } from '../../src/services/sandboxes/export.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { ttyProgress } from '../../src/cli/progress.js';

export default class SandboxExport extends PayctlCommand {
  static override description =
    "Write a sandbox's whole state to a file (JSON lines, docs/sandboxes.md): every resource, events, clock, fault rules, webhook endpoints; no keys or secrets";
  static override examples = ['<%= config.bin %> sandbox export GROUP_ID --out sandbox.jsonl', '<%= config.bin %> sandbox export GROUP_ID > sandbox.jsonl'];
  static override args = { id: Args.string({ description: 'the sandbox to export (its group id)', required: true }) };
  static override flags = { out: Flags.string({ char: 'o', description: 'the file to write [default: standard output]' }) };

  async run(): Promise<{ group_id: string; file: string; format_version: number; schema_version: number; rows: number }> {
    const { args, flags } = await this.parse(SandboxExport);
    if (this.jsonEnabled() && !flags.out) throw usage('--json needs --out FILE (the file itself goes to standard output otherwise)');
    const p = await this.platform(flags.db);
    // The bar is on stderr, and only when the file is not going to the terminal's stdout.
    const progress = ttyProgress({ json: this.jsonEnabled() || (!flags.out && process.stdout.isTTY) });
    const file = await execute(exportSandbox, p, contextFor(p, undefined), { group_id: args.id }, { progress });
    const out = flags.out ? createWriteStream(flags.out) : process.stdout;
    let trailer = '';
    for await (const text of file.lines) {
      trailer = text;
      if (!out.write(text)) await once(out, 'drain');
    }
    if (flags.out) await new Promise<void>((resolve, reject) => (out as ReturnType<typeof createWriteStream>).end((err?: Error | null) => (err ? reject(err) : resolve())));
    const rows = Object.values((JSON.parse(trailer) as { counts: Record<string, number> }).counts).reduce((a, b) => a + b, 0);
    if (flags.out) this.log(`Sandbox ${args.id}: ${rows} rows written to ${flags.out}`);
    return { group_id: args.id, file: flags.out ?? '-', format_version: file.header.format_version, schema_version: file.header.schema_version, rows };
  }
}
