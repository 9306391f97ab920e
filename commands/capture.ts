import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { captureTransaction, getTransaction } from '../src/services/transactions/lifecycle.js';
import type { Transaction } from '../src/domain/transactions.js';
import { amountFlags, amountFromFlags, captureABodyFromAuth, fileFlag, groupFlag, receipt } from '../src/cli/flags/transaction-flags.js';
import { contextFor } from '../src/services/context.js';

export default class Capture extends PayctlCommand {
  static override description = [
    'Capture an authorized transaction, all of it or part of it.',
    'Without an amount, or with the authorized amount, the CLI sends capture variant B ({"amount"}) and the auth becomes captured.',
    'A smaller amount sends variant A, rebuilt from the stored auth with amounts.captured_amount, and the auth becomes partially_captured.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> capture TRANSACTION_ID --group GROUP_ID',
    '<%= config.bin %> capture TRANSACTION_ID --group GROUP_ID --amount 7.50',
    '<%= config.bin %> capture TRANSACTION_ID --group GROUP_ID --file capture.json --json',
  ];
  static override args = { id: Args.string({ description: 'transaction id of the auth', required: true }) };
  static override flags = {
    group: groupFlag,
    ...amountFlags,
    token: Flags.string({ description: 'payment_details.token of variant A [default: auth:<id>; the auth is not charged again]' }),
    file: fileFlag,
  };

  async run(): Promise<Transaction> {
    const { args, flags } = await this.parse(Capture);
    const p = await this.platform(flags.db);
    let body: unknown;
    if (flags.file) {
      body = await this.readBodyFile(flags.file);
    } else {
      const auth = await getTransaction(p, contextFor(p, flags.group), args.id);
      const amount = amountFromFlags(flags) ?? auth.amounts.authorized_amount;
      body = amount === auth.amounts.authorized_amount ? { amount } : captureABodyFromAuth(auth, amount, flags.token);
    }
    const t = await captureTransaction(p, contextFor(p, flags.group), args.id, body);
    this.log(receipt(t));
    return t;
  }
}
