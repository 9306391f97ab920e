import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getTransaction } from '../../src/services/transactions/lifecycle.js';
import type { Transaction } from '../../src/domain/transactions.js';
import { groupFlag, receipt } from '../../src/cli/flags/transaction-flags.js';
import { keyValues, when } from '../../src/render/table.js';
import { contextFor } from '../../src/services/context.js';

export default class TransactionGet extends PayctlCommand {
  static override description = 'Show a transaction';
  static override examples = ['<%= config.bin %> transaction get TRANSACTION_ID --group GROUP_ID', '<%= config.bin %> transaction get TRANSACTION_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'transaction id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Transaction> {
    const { args, flags } = await this.parse(TransactionGet);
    const t = await getTransaction(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), args.id);
    this.log(receipt(t));
    this.log(keyValues([['source', t.source], ['processor', `${t.processor_name} (${t.processor_id})`], ['created', when(t.created_at)], ['updated', when(t.updated_at)]]));
    return t;
  }
}
