import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getOutbox } from '../../src/mail/outbox.js';
import type { OutboxRow } from '../../src/store/repositories/outbox.js';
import { notFound } from '../../src/errors.js';
import { keyValues, when } from '../../src/render/table.js';

export default class OutboxShow extends PayctlCommand {
  static override description = 'Show one e-mail of the outbox with its body';
  static override examples = ['<%= config.bin %> outbox show EMAIL_ID', '<%= config.bin %> outbox show EMAIL_ID --json'];
  static override args = { id: Args.string({ description: 'e-mail id (from outbox list)', required: true }) };

  async run(): Promise<OutboxRow> {
    const { args, flags } = await this.parse(OutboxShow);
    const row = await getOutbox(await this.platform(flags.db), args.id);
    if (!row) throw notFound('e-mail');
    this.log(
      keyValues([
        ['id', row.id], ['kind', row.kind], ['to', row.to_address], ['subject', row.subject], ['status', row.status + (row.error ? ` (${row.error})` : '')],
        ['related', row.related_id], ['created', when(row.created_at)], ['sent', row.sent_at ? when(row.sent_at) : ''],
      ]),
    );
    this.log('');
    this.log(row.body);
    return row;
  }
}
