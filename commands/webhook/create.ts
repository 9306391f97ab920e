import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { setsField } from '../../src/cli/flags/fields.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createWebhookEndpoint } from '../../src/services/webhooks/endpoints.js';
import type { WebhookEndpoint } from '../../src/domain/webhooks.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { endpointBlock } from '../../src/render/webhooks.js';

export default class WebhookCreate extends PayctlCommand {
  static override description = 'Add a webhook endpoint: events of the given types are POSTed to the URL, signed (Standard Webhooks)';
  static override examples = [
    "<%= config.bin %> webhook create --group GROUP_ID --url https://example.com/hooks --events 'transaction.*,invoice.paid'",
    "<%= config.bin %> webhook create --group GROUP_ID --url http://localhost:3000/hooks --events '*' --description 'local app' --json",
    "<%= config.bin %> webhook create --group GROUP_ID --collect --events '*'",
  ];
  static override bodySchema = createWebhookEndpoint.input;
  static override flags = {
    group: groupFlag,
    url: Flags.string({ description: 'the receiver (http:// or https://); or --collect', exactlyOne: ['url', 'collect'] }),
    collect: Flags.boolean({ description: 'keep the deliveries, signed, in the group\'s inbox (GET /api/v1/sandboxes/GROUP/inbox) instead of POSTing them', exactlyOne: ['url', 'collect'] }),
    events: setsField(Flags.string({ description: "event types, comma separated: exact types, wildcards like transaction.*, or '*'", required: true }), 'enabled_events'),
    description: Flags.string({ description: 'a note to recognise the endpoint by' }),
    disabled: Flags.boolean({ description: 'create it disabled (no deliveries until enabled)' }),
  };

  async run(): Promise<WebhookEndpoint> {
    const { flags } = await this.parse(WebhookCreate);
    const p = await this.platform(flags.db);
    const endpoint = await execute(createWebhookEndpoint, p, contextFor(p, flags.group), {
      ...(flags.collect ? { kind: 'collect' as const } : { url: flags.url }),
      enabled_events: flags.events.split(',').map((t) => t.trim()).filter(Boolean),
      ...(flags.description !== undefined ? { description: flags.description } : {}),
      ...(flags.disabled ? { disabled: true } : {}),
    });
    this.log(`Created webhook endpoint ${endpoint.id}`);
    this.log(endpointBlock(endpoint));
    this.log(`Signing secret (shown once; verify deliveries with it): ${endpoint.secret}`);
    return endpoint;
  }
}
