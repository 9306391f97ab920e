import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getOutbox } from '../../src/mail/outbox.js';
import type { OutboxEmail } from '../../src/domain/email.js';
import { outboxDetails } from '../../src/render/outbox.js';

export default class OutboxShow extends PayctlCommand {
  static override description = 'Show one e-mail of the outbox with its body';
  static override examples = ['<%= config.bin %> outbox show EMAIL_ID', '<%= config.bin %> outbox show EMAIL_ID --json'];
  static override args = { id: Args.string({ description: 'e-mail id (from outbox list)', required: true }) };

  async run(): Promise<OutboxEmail> {
    const { args, flags } = await this.parse(OutboxShow);
    const row = await getOutbox(await this.platform(flags.db), args.id);
    this.log(outboxDetails(row));
    return row;
  }
}
