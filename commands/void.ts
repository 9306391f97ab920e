import { Args } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { voidTransaction } from '../src/services/transactions/lifecycle.js';
import type { Transaction } from '../src/domain/transactions.js';
import { groupFlag } from '../src/cli/flags/group.js';
import { receipt } from '../src/render/transactions.js';
import { contextFor } from '../src/services/context.js';
import { execute } from '../src/services/use-case.js';

export default class Void extends PayctlCommand {
  static override description = 'Void a pending sale or an authorized auth before it settles (it becomes voided)';
  static override examples = ['<%= config.bin %> void TRANSACTION_ID --group GROUP_ID', '<%= config.bin %> void TRANSACTION_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'transaction id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Transaction> {
    const { args, flags } = await this.parse(Void);
    const t = await execute(voidTransaction, await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), { transaction_id: args.id });
    this.log(receipt(t));
    return t;
  }
}
