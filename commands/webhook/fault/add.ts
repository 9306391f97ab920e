import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../../src/cli/base.js';
import { groupFlag } from '../../../src/cli/flags/group.js';
import { fileFlag } from '../../../src/cli/flags/file.js';
import { scheduleBody, scheduleFlags } from '../../../src/cli/flags/fault-schedule.js';
import { contextFor } from '../../../src/services/context.js';
import { executeRaw, withParams } from '../../../src/services/use-case.js';
import { addWebhookFaultRule } from '../../../src/services/faults/webhook-rules.js';
import { WEBHOOK_FAULT_ACTIONS, type WebhookFaultRule } from '../../../src/domain/faults.js';
import { faultSchedule, webhookFaultAction } from '../../../src/render/faults.js';

export default class WebhookFaultAdd extends PayctlCommand {
  static override description = "Add a fault rule to a webhook endpoint: its attempts are duplicated, delayed, reordered, dropped or badly signed";
  static override examples = [
    '<%= config.bin %> webhook fault add ENDPOINT_ID --group GROUP_ID --action duplicate --first 1',
    '<%= config.bin %> webhook fault add ENDPOINT_ID --group GROUP_ID --action drop --rate 0.5 --seed 7',
    '<%= config.bin %> webhook fault add ENDPOINT_ID --group GROUP_ID --action delay --delay 2h --count 1',
    '<%= config.bin %> webhook fault add ENDPOINT_ID --group GROUP_ID --action reorder --window 10m --every 3',
  ];
  static override args = { id: Args.string({ description: 'endpoint id (from webhook list)', required: true }) };
  static override flags = {
    group: groupFlag,
    action: Flags.string({ description: 'what a fired attempt gets', options: [...WEBHOOK_FAULT_ACTIONS] }),
    ...scheduleFlags('attempt'),
    delay: Flags.string({ description: 'delay: how long an attempt is held, in platform time (30s, 2h)' }),
    window: Flags.string({ description: 'reorder: attempts are held back by up to this long (platform time), so later events overtake them' }),
    file: fileFlag,
  };

  async run(): Promise<WebhookFaultRule> {
    const { args, flags } = await this.parse(WebhookFaultAdd);
    const p = await this.platform(flags.db);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : Object.fromEntries(
          Object.entries({
            action: flags.action,
            ...scheduleBody(flags),
            delay: flags.delay,
            window: flags.window,
          }).filter(([, v]) => v !== undefined),
        );
    const rule = await executeRaw(addWebhookFaultRule, p, contextFor(p, flags.group), withParams(body, { group_id: flags.group, endpoint_id: args.id }));
    this.log(`Added webhook fault rule ${rule.id} to endpoint ${rule.endpoint_id}: ${faultSchedule(rule)}: ${webhookFaultAction(rule)} (seed ${rule.seed})`);
    return rule;
  }
}
