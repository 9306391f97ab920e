import { Args, Flags } from '@oclif/core';
import { usage } from '../src/cli/usage.js';
import { PayctlCommand } from '../src/cli/base.js';
import { groupFlag } from '../src/cli/flags/group.js';
import { RECIPES, trigger, TRIGGER_TYPES, type TriggerType } from '../src/dev/trigger.js';
import type { Event } from '../src/domain/events.js';
import { EVENT_COLUMNS, eventRows } from '../src/render/events.js';
import { table } from '../src/render/table.js';

export default class Trigger extends PayctlCommand {
  static override description = [
    'Make an event of TYPE happen for real and print the events it caused (--json: the event of TYPE, exactly as `payctl events get ID --json` prints it).',
    "It drives the real API on the group (with a key that lives only for the run) and, for what the clock does (settlement, expiry, billing, past due), moves the group's clock as `payctl clock advance --group` does — only with --move-clock, as it cannot be undone (try it in a sandbox: `payctl sandbox create --demo`). A running `payctl serve` streams the events to `payctl listen` and delivers them to webhook endpoints.",
    `Types: ${TRIGGER_TYPES.join(', ')}.`,
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> trigger transaction.approved',
    '<%= config.bin %> trigger subscription.payment_failed --group GROUP_ID --move-clock',
    '<%= config.bin %> trigger invoice.past_due --json',
  ];
  static override args = { type: Args.string({ description: 'the event type to cause (e.g. transaction.captured)', required: true }) };
  static override flags = {
    group: groupFlag,
    'move-clock': Flags.boolean({
      description: "allow a type whose recipe moves the group's clock forward (settled, refunded, expired, settlement_batch.closed, payment_failed, past_due): everything else of the group that falls due then is billed, settled or expired too",
    }),
  };

  async run(): Promise<Event> {
    const { args, flags } = await this.parse(Trigger);
    if (args.type === 'signup_entry.created') {
      this.error('signup_entry.created belongs to the group the entry opens, not to this one: submit an entry with `payctl onboard --file entry.json`', { exit: 2 });
    }
    if (!(TRIGGER_TYPES as string[]).includes(args.type)) {
      this.error(`unknown event type "${args.type}": give one of ${TRIGGER_TYPES.join(', ')}`, { exit: 2 });
    }
    const type = args.type as TriggerType;
    const moves = RECIPES[type].moves;
    // Moving a group's clock is not undone: it is asked for, and the message says what moves.
    if (moves && !flags['move-clock']) {
      throw usage(
        `${type} moves the clock of group ${flags.group} forward by ${moves} (${RECIPES[type].does}); whatever else of that group falls due in that time is billed, settled or expired too. ` +
          'Add --move-clock to allow it, or trigger it in a throwaway sandbox: `payctl sandbox create --demo`, then --group SANDBOX_GROUP_ID',
      );
    }
    const p = await this.platform(flags.db);
    this.log(`Triggering ${type}: ${RECIPES[type].does}`);
    const result = await trigger(p, flags.group, type);
    this.log(table(EVENT_COLUMNS, eventRows(result.events)));
    this.log(`${result.events.length} event${result.events.length === 1 ? '' : 's'} (payctl events get ID for one)`);
    for (const f of result.faults) this.log(`Injected fault: ${f}`);
    // The API's event object of the type asked for (the last one, when the recipe caused several).
    return result.events.findLast((e) => e.type === type)!;
  }
}
