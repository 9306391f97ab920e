import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { ttyProgress } from '../../src/cli/progress.js';
import { defaultDbPath } from '../../src/config/env.js';
import { copyDatabase, MAX_BATCH_ROWS, type CopyResult } from '../../src/services/db/copy.js';
import { copySummary } from '../../src/render/db-copy.js';

export default class DbCopy extends PayctlCommand {
  static override description =
    'Copy a SQLite database (every table, same ids) into an empty PostgreSQL database at the same schema version, and verify the row counts';
  static override examples = [
    '<%= config.bin %> db copy --from ./.payctl/payctl.db --to postgres://payctl:secret@127.0.0.1:5432/payctl',
    '<%= config.bin %> db copy --from ./old.db --to postgres://payctl@db.internal/payctl --replace --json',
  ];
  static override flags = {
    from: Flags.string({ description: 'the SQLite database file to copy [default: ./.payctl/payctl.db]' }),
    to: Flags.string({ description: 'the PostgreSQL database to fill: postgres://user:password@host:5432/name (made if missing)', required: true }),
    replace: Flags.boolean({ description: 'empty the target first when it already holds data (default: refuse)' }),
    'batch-rows': Flags.integer({ description: `rows per read page and per INSERT (1 to ${MAX_BATCH_ROWS.toLocaleString('en-US')})`, default: 5000, min: 1, max: MAX_BATCH_ROWS }),
  };

  async run(): Promise<CopyResult> {
    const { flags } = await this.parse(DbCopy);
    const result = await copyDatabase({
      from: flags.from ?? defaultDbPath(),
      to: flags.to,
      replace: flags.replace,
      batchRows: flags['batch-rows'],
      progress: ttyProgress({ json: this.jsonEnabled(), minTotal: 5000 }),
    });
    this.log(copySummary(result));
    return result;
  }
}
