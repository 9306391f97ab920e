import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupOrFirstFlag } from '../../src/cli/flags/group.js';
import { ttyProgress } from '../../src/cli/progress.js';
import { MAX_SEED, seedTransactions, type SeedResult } from '../../src/dev/seed.js';
import { seedSummary } from '../../src/render/platform.js';

export default class DevSeed extends PayctlCommand {
  static override description =
    'Load many realistic transactions into a group (spread over the last months, varied statuses, brands, sources and customers) for reports and benchmarks';
  static override examples = [
    '<%= config.bin %> dev seed --transactions 1000000',
    '<%= config.bin %> dev seed --transactions 5000 --group GROUP_ID --json',
  ];
  static override flags = {
    transactions: Flags.integer({ description: `how many (1 to ${MAX_SEED.toLocaleString('en-US')})`, required: true, min: 1, max: MAX_SEED }),
    group: groupOrFirstFlag,
    months: Flags.integer({ description: 'months back from now the rows spread over', default: 8, min: 1, max: 120 }),
    seed: Flags.integer({ description: 'seed of the random data (the same seed gives the same data)', default: 1 }),
  };

  async run(): Promise<SeedResult> {
    const { flags } = await this.parse(DevSeed);
    const p = await this.platform(flags.db);
    const r = await seedTransactions(p, {
      transactions: flags.transactions,
      groupId: flags.group,
      months: flags.months,
      seed: flags.seed,
      progress: ttyProgress({ json: this.jsonEnabled() }),
    });
    this.log(seedSummary(r));
    return r;
  }
}
