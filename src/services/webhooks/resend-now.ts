// `payctl events resend`: the API's resend, then the deliveries sent from this process at
// once (no server may be running to send them), as `clock advance` sends what fell due; a
// running server's pass may take some of them: each goes once.
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import { resendEvent } from './endpoints.js';
import { deliverDue } from './delivery.js';
import type { ResendResult } from '../../domain/webhooks.js';

/** The resend's answer and the attempts this process made. */
export const resendEventNow = useCase({
  input: resendEvent.input,
  async run(p: Platform, ctx: GroupContext, input, io): Promise<ResendResult & { attempts: number }> {
    const result = await resendEvent.run(p, ctx, input, io);
    const attempts = result.endpoint_ids.length === 0 ? 0 : await deliverDue({ db: p.db, clock: p.clock, env: p.env }, { groupId: ctx.group });
    return { ...result, attempts };
  },
});
