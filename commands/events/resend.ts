import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { resendEventNow } from '../../src/services/webhooks/resend-now.js';
import type { ResendResult } from '../../src/domain/webhooks.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class EventsResend extends PayctlCommand {
  static override description = 'Deliver an event again: to every enabled endpoint that takes its type, or to one (--endpoint); sent at once';
  static override examples = ['<%= config.bin %> events resend EVENT_ID --group GROUP_ID', '<%= config.bin %> events resend EVENT_ID --group GROUP_ID --endpoint ENDPOINT_ID'];
  static override args = { id: Args.string({ description: 'event id (from events list)', required: true }) };
  static override flags = {
    group: groupFlag,
    endpoint: Flags.string({ description: 'only this endpoint (subscribed to the type or not)' }),
  };

  async run(): Promise<ResendResult> {
    const { args, flags } = await this.parse(EventsResend);
    const p = await this.platform(flags.db);
    const { attempts, ...result } = await execute(resendEventNow, p, contextFor(p, flags.group), { event_id: args.id, endpoint_id: flags.endpoint });
    if (result.endpoint_ids.length === 0) {
      this.log(`No enabled endpoint takes ${args.id}'s type: nothing queued (name one with --endpoint).`);
      return result;
    }
    this.log(`Queued ${args.id} for ${result.endpoint_ids.join(', ')}; ${attempts} attempt(s) made (see payctl webhook deliveries ENDPOINT_ID)`);
    return result;
  }
}
