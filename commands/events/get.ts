import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getEvent } from '../../src/services/events/events.js';
import { objectId, type Event } from '../../src/domain/events.js';
import { keyValues, table } from '../../src/render/table.js';
import { dateTime } from '../../src/render/format.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class EventsGet extends PayctlCommand {
  static override description = 'Show one event: its type, time, request and the object it carries';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['events:show'];
  static override examples = ['<%= config.bin %> events get EVENT_ID --group GROUP_ID', '<%= config.bin %> events get EVENT_ID --json'];
  static override args = { id: Args.string({ description: 'event id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Event> {
    const { args, flags } = await this.parse(EventsGet);
    const p = await this.platform(flags.db);
    const e = await execute(getEvent, p, contextFor(p, flags.group), { event_id: args.id });
    this.log(
      keyValues([
        ['id', e.id],
        ['type', e.type],
        ['created', dateTime(e.created_at)],
        ['object', objectId(e)],
        ['request', e.request ? e.request.id : 'none (the clock did it)'],
        ['idempotency key', e.request?.idempotency_key ?? ''],
      ]),
    );
    const rows = Object.entries(e.data.object).map(([k, v]) => [k, brief(v), ...(e.data.previous_attributes ? [k in e.data.previous_attributes ? brief(e.data.previous_attributes[k]) : ''] : [])]);
    this.log(table(['field', 'value', ...(e.data.previous_attributes ? ['before'] : [])], rows));
    return e;
  }
}

function brief(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
