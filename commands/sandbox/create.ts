import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { sandboxCreated } from '../../src/render/platform.js';
import { createSandbox, type Sandbox } from '../../src/services/sandboxes/sandboxes.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { seedDemoInGroup } from '../../src/dev/demo.js';
import { setsField } from '../../src/cli/flags/fields.js';
import { CLOCK_MODES, MAX_CLOCK_RATE } from '../../src/domain/clock-modes.js';

export default class SandboxCreate extends PayctlCommand {
  static override description = 'Create a sandbox: a group with a processor, a linked account, one key per permission kind and its own clock';
  static override examples = [
    '<%= config.bin %> sandbox create --json',
    '<%= config.bin %> sandbox create --demo --name "checkout suite"',
    '<%= config.bin %> sandbox create --clock 2027-01-01T00:00:00Z',
    '<%= config.bin %> sandbox create --webhooks collect --json',
    '<%= config.bin %> sandbox create --ttl 1h',
    '<%= config.bin %> sandbox create --clock 2030-01-15T12:00:00Z --clock-mode frozen',
  ];
  static override flags = {
    name: Flags.string({ description: 'a name to recognise it by [default: Sandbox]' }),
    demo: Flags.boolean({ description: 'add the demo data of `payctl init --demo` inside the sandbox' }),
    clock: setsField(Flags.string({ description: "the sandbox clock's start time (RFC 3339) [default: the platform clock]" }), 'clock', 'clock.time'),
    'clock-mode': setsField(Flags.string({ description: 'the clock stands still until moved (frozen), runs with real time (running) or faster (accelerated) [default: running]', options: [...CLOCK_MODES] }), 'clock.mode'),
    'clock-rate': setsField(Flags.integer({ description: `with --clock-mode accelerated: sandbox seconds per real second (2 to ${MAX_CLOCK_RATE})` }), 'clock.rate'),
    webhooks: Flags.string({ description: "collect: keep the sandbox's webhooks, signed, in its inbox (GET /api/v1/sandboxes/ID/inbox)", options: ['collect'] }),
    ttl: Flags.string({ description: 'drop it after this long without a request, in real time (30m, 1h, 1d or seconds; docs/sandboxes.md) [default: kept]' }),
  };

  async run(): Promise<Sandbox> {
    const { flags } = await this.parse(SandboxCreate);
    const p = await this.platform(flags.db);
    const mode = flags['clock-mode'];
    const rate = flags['clock-rate'];
    // The string form when only a start time is given: what the API's plain form means.
    const clock = mode === undefined && rate === undefined ? flags.clock : { time: flags.clock, mode: mode ?? 'running', rate };
    const sandbox = await execute(createSandbox(seedDemoInGroup), p, contextFor(p, undefined), {
      name: flags.name,
      demo: flags.demo,
      clock,
      ttl: flags.ttl,
      ...(flags.webhooks === 'collect' ? { webhooks: 'collect' as const } : {}),
    });
    this.log(sandboxCreated(sandbox));
    return sandbox;
  }
}
