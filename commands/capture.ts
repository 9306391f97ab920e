import { Args } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { captureTransaction } from '../src/services/transactions/lifecycle.js';
import { captureRequestFrom, type Transaction } from '../src/domain/transactions.js';
import type { CaptureRequest } from '../src/domain/transaction-transitions.js';
import { amountFlags } from '../src/cli/flags/transaction-flags.js';
import { amountFrom } from '../src/cli/flags/money.js';
import { fileFlag } from '../src/cli/flags/file.js';
import { groupFlag } from '../src/cli/flags/group.js';
import { receipt } from '../src/render/transactions.js';
import { contextFor } from '../src/services/context.js';
import { execute } from '../src/services/use-case.js';

export default class Capture extends PayctlCommand {
  static override description = [
    'Capture an authorized transaction, all of it or part of it.',
    'Without an amount, or with the authorized amount, the auth becomes captured; a smaller amount makes it partially_captured.',
    'The auth is read and captured in one transaction. --file sends a capture body of the API (variant A or B).',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> capture TRANSACTION_ID --group GROUP_ID',
    '<%= config.bin %> capture TRANSACTION_ID --group GROUP_ID --amount 7.50',
    '<%= config.bin %> capture TRANSACTION_ID --group GROUP_ID --file capture.json --json',
  ];
  static override args = { id: Args.string({ description: 'transaction id of the auth', required: true }) };
  static override flags = { group: groupFlag, ...amountFlags, file: fileFlag };

  async run(): Promise<Transaction> {
    const { args, flags } = await this.parse(Capture);
    const p = await this.platform(flags.db);
    const req: CaptureRequest = flags.file
      ? captureRequestFrom(await this.readBodyFile(flags.file))
      : { kind: 'up_to', amount: amountFrom(flags, 'amount'), path: 'amount' };
    const t = await execute(captureTransaction, p, contextFor(p, flags.group), { transaction_id: args.id, capture: req });
    this.log(receipt(t));
    return t;
  }
}
