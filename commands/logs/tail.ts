import { Flags } from '@oclif/core';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PayctlCommand } from '../../src/cli/base.js';
import { usage } from '../../src/cli/usage.js';
import { ENV } from '../../src/config/env.js';
import { followLog, formatEntry, matches, parseStatusFilter, pathPattern, type LogFilter } from '../../src/dev/log-tail.js';

export default class LogsTail extends PayctlCommand {
  static override description =
    "Stream the running server's API request log live: method, path, status, duration, request id, idempotency key, error type";
  static override examples = [
    '<%= config.bin %> logs tail',
    '<%= config.bin %> logs tail --status 4xx,5xx',
    "<%= config.bin %> logs tail --path '/api/v1/groups/*/transactions' --json",
    '<%= config.bin %> logs tail --file /var/log/payctl/access.log --lines 20',
  ];
  static override enableJsonFlag = false;
  static override flags = {
    file: Flags.string({
      description: 'the access log to follow [default: the one payctl serve writes, access.log beside the database]',
      env: ENV.accessLog,
    }),
    status: Flags.string({ description: 'only these statuses: classes and codes, comma-separated (4xx, 5xx, 404)' }),
    path: Flags.string({ description: "only these paths: a prefix, or a pattern with * for one segment (repeatable)", multiple: true }),
    lines: Flags.integer({ description: 'first print the last N matching requests already logged', default: 0, min: 0 }),
    json: Flags.boolean({ description: 'print each request as its JSON log line' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(LogsTail);
    let status: Pick<LogFilter, 'statusClasses' | 'statuses'>;
    try {
      status = flags.status ? parseStatusFilter(flags.status) : { statusClasses: [], statuses: [] };
    } catch (err) {
      throw usage((err as Error).message);
    }
    const filter: LogFilter = { ...status, paths: (flags.path ?? []).map(pathPattern) };
    const file = flags.file ?? path.join(this.dataDir(flags.db), 'access.log');
    if (file === '-' || file === 'off') throw usage(`the access log is ${file === '-' ? 'written to the server\'s stderr' : 'off'}; give --file the path payctl serve --access-log writes`);
    if (!existsSync(file)) {
      this.error(
        `no access log at ${file}: start the server with \`payctl serve\` (it appends every request to access.log beside its database), or give --file`,
        { exit: 1 },
      );
    }
    const ac = new AbortController();
    process.once('SIGINT', () => ac.abort());
    process.once('SIGTERM', () => ac.abort());
    process.stderr.write(`following ${file} (Ctrl-C stops)\n`);
    // --lines counts matching requests: filter the history first, then keep the last N.
    const history: string[] = [];
    let live = flags.lines === 0;
    await followLog(
      file,
      (entry) => {
        if (!matches(entry, filter)) return;
        const line = flags.json ? JSON.stringify(entry) : formatEntry(entry);
        if (live) process.stdout.write(`${line}\n`);
        else history.push(line);
      },
      {
        signal: ac.signal,
        readExisting: flags.lines > 0,
        onCaughtUp: () => {
          for (const line of history.slice(-flags.lines)) process.stdout.write(`${line}\n`);
          live = true;
        },
      },
    );
  }
}
