import { writeFile } from 'node:fs/promises';
import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { getRecording, startRecording, stopRecording, type RecordingSummary } from '../../src/services/sandboxes/recordings.js';

export default class ScenarioRecord extends PayctlCommand {
  static override description =
    "Record a sandbox's API calls as a scenario file: --start begins recording (every call of the sandbox from then on), --stop ends it, and without either the scenario file the calls make is written to --out (or printed). Secrets are never recorded. Format: docs/scenarios.md";
  static override examples = [
    '<%= config.bin %> scenario record --group GROUP_ID --start',
    '<%= config.bin %> scenario record --group GROUP_ID --stop --out flow.yaml',
    '<%= config.bin %> scenario record --group GROUP_ID > flow.yaml',
  ];
  static override flags = {
    group: Flags.string({ description: 'the sandbox', required: true }),
    start: Flags.boolean({ description: 'start recording (a new recording replaces the last one)', exclusive: ['stop'] }),
    stop: Flags.boolean({ description: 'stop recording (then writes the scenario file, as without a flag)' }),
    out: Flags.string({ description: 'write the scenario file here instead of stdout' }),
  };

  async run(): Promise<RecordingSummary | { scenario: string }> {
    const { flags } = await this.parse(ScenarioRecord);
    const p = await this.platform(flags.db);
    const ctx = contextFor(p, undefined);
    if (flags.start) {
      const started = await execute(startRecording, p, ctx, { group_id: flags.group });
      this.log(`Recording sandbox ${flags.group} from ${started.started_at}: every call of it from now on (payctl scenario record --group ${flags.group} --stop --out FILE ends it)`);
      return started;
    }
    if (flags.stop) {
      const stopped = await execute(stopRecording, p, ctx, { group_id: flags.group });
      process.stderr.write(`Stopped recording sandbox ${flags.group}: ${stopped.calls} call${stopped.calls === 1 ? '' : 's'}\n`);
    }
    const made = (await execute(getRecording, p, ctx, { group_id: flags.group, format: 'scenario' })) as { scenario: AsyncIterable<string> };
    // The server streams it; here it is written whole (one file, bounded as the journal is: docs/journal.md).
    let text = '';
    for await (const piece of made.scenario) text += piece;
    const out = { scenario: text };
    if (flags.out) {
      await writeFile(flags.out, out.scenario);
      process.stderr.write(`Wrote ${flags.out}\n`);
    } else if (!this.jsonEnabled()) process.stdout.write(out.scenario);
    return out;
  }
}
