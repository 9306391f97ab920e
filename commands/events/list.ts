import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { listEvents } from '../../src/services/events/events.js';
import { typePattern, type EventList } from '../../src/domain/events.js';
import { eventRows, EVENT_COLUMNS } from '../../src/render/events.js';
import { table } from '../../src/render/table.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { limitFlag, startingAfterFlag } from '../../src/cli/flags/paging.js';

export default class EventsList extends PayctlCommand {
  static override description = 'List the events of a group, newest first (what webhooks and payctl listen deliver)';
  static override examples = [
    '<%= config.bin %> events list --group GROUP_ID',
    "<%= config.bin %> events list --type 'transaction.*' --type invoice.paid --limit 20",
    '<%= config.bin %> events list --since 2026-11-01 --json',
  ];
  static override flags = {
    group: groupFlag,
    type: Flags.string({ description: "only these types: exact, or wildcards like 'transaction.*' (repeatable, or comma-separated)", multiple: true }),
    limit: limitFlag,
    since: Flags.string({ description: 'only events created at or after this time (RFC 3339 or YYYY-MM-DD)' }),
    until: Flags.string({ description: 'only events created at or before this time (RFC 3339 or YYYY-MM-DD)' }),
    'starting-after': startingAfterFlag('event'),
  };

  async run(): Promise<EventList> {
    const { flags } = await this.parse(EventsList);
    for (const t of (flags.type ?? []).flatMap((x) => x.split(',')).map((x) => x.trim())) {
      const checked = typePattern.safeParse(t);
      if (!checked.success) this.error(`--type: ${checked.error.issues[0]!.message}`, { exit: 2 });
    }
    const p = await this.platform(flags.db);
    // The operator's context holds every permission kind: it reads every event of the group, as a key with manage_webhooks does.
    const result = await execute(listEvents, p, contextFor(p, flags.group), {
      types: flags.type,
      limit: flags.limit,
      created_from: flags.since,
      created_to: flags.until,
      starting_after: flags['starting-after'],
    });
    const items = result.data.items;
    if (items.length === 0) this.log('no events');
    else this.log(table(EVENT_COLUMNS, eventRows(items)));
    this.log(pageFooter({ shown: items.length, ...(result.data.has_more ? { next: `--starting-after ${items[items.length - 1]!.id}` } : {}) }));
    return result;
  }
}
