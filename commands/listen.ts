import { Flags } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { groupFlag } from '../src/cli/flags/group.js';
import { ENV } from '../src/config/env.js';
import { resolveSetting, SETTINGS } from '../src/config/profile.js';
import { typePattern } from '../src/domain/events.js';
import { listen, ListenError, newListenSecret } from '../src/dev/listen.js';

export default class Listen extends PayctlCommand {
  static override description = [
    "Follow a running server's events live and forward them to your app's webhook handler.",
    'Connects to `payctl serve` over the live event stream (GET /api/v1/groups/{group_id}/events/stream) with a key that has the manage_webhooks permission, prints one line per event (time, type, event id, object id, the forward\'s status) and, with --forward-to, POSTs each event there signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the listen secret printed at start. A lost connection is resumed where it stopped: no event is lost.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> listen --api-key $KEY',
    "<%= config.bin %> listen --events 'transaction.*,invoice.paid' --forward-to http://localhost:3000/hooks",
    '<%= config.bin %> listen --api-url http://127.0.0.1:4100 --json',
  ];
  static override enableJsonFlag = false;
  static override flags = {
    group: groupFlag,
    events: Flags.string({ description: "only these types: exact, or wildcards like 'transaction.*' (comma-separated or repeated) [default: all]", multiple: true }),
    'forward-to': Flags.string({ description: 'POST each event to this URL, signed (Standard Webhooks) with the listen secret' }),
    'api-url': Flags.string({ description: `the payctl server [default: ${ENV.apiUrl}, else \`payctl config set api-url\`, else ${SETTINGS['api-url'].default}]` }),
    'api-key': Flags.string({ description: "an API key of the group with the manage_webhooks permission [default: the demo's manage_webhooks key, in the demo group]", env: ENV.apiKey }),
    secret: Flags.string({ description: 'the signing secret of forwarded events (whsec_…) [default: a new one, printed at start]', env: ENV.listenSecret }),
    json: Flags.boolean({ description: 'print each event as its JSON object, one per line' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Listen);
    const types = (flags.events ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
    for (const t of types) {
      const checked = typePattern.safeParse(t);
      if (!checked.success) this.error(`--events: ${checked.error.issues[0]!.message}`, { exit: 2 });
    }
    const apiUrl = resolveSetting('api-url', { flag: flags['api-url'], dataDir: this.dataDir(flags.db) }).value!;
    const urlProblem = SETTINGS['api-url'].check(apiUrl);
    if (urlProblem) this.error(`--api-url: ${urlProblem}`, { exit: 2 });
    if (flags['forward-to']) {
      const problem = SETTINGS['api-url'].check(flags['forward-to']);
      if (problem) this.error(`--forward-to: ${problem}`, { exit: 2 });
    }
    // The demo made a manage_webhooks key for its group: use it rather than ask for one.
    const apiKey = flags['api-key'] ?? (await (await import('../src/dev/demo.js')).storedDemoKey(await this.platform(flags.db), flags.group, 'manage_webhooks'));
    if (!apiKey) {
      this.error(
        `give an API key of the group with the manage_webhooks permission: --api-key KEY or ${ENV.apiKey} (create one with \`payctl key create --group ${flags.group} --permission manage_webhooks\`)`,
        { exit: 2 },
      );
    }
    const secret = flags.secret ?? newListenSecret();
    if (!/^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret)) this.error('--secret: must be whsec_ followed by a base64 key (at least 16 characters)', { exit: 2 });
    const ac = new AbortController();
    process.once('SIGINT', () => ac.abort());
    process.once('SIGTERM', () => ac.abort());
    try {
      await listen({
        apiUrl,
        apiKey,
        group: flags.group,
        types,
        ...(flags['forward-to'] ? { forwardTo: flags['forward-to'] } : {}),
        secret,
        json: flags.json,
        out: (line) => process.stdout.write(`${line}\n`),
        info: (line) => process.stderr.write(`${line}\n`),
        signal: ac.signal,
      });
    } catch (err) {
      if (err instanceof ListenError) this.error(err.message, { exit: 1 });
      throw err;
    }
  }
}
