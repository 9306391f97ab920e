import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';
import { addFaultRule } from '../../src/services/faults/rules.js';
import { API_FAULT_ACTIONS, DECLINE_CODES, ERROR_STATUSES, FAULT_OPERATIONS, type ApiFaultRule } from '../../src/domain/faults.js';
import { faultAction, faultSchedule, faultTarget } from '../../src/render/faults.js';

/** A number flag kept as typed when it is not one, so the rule's schema names it. */
const num = (v: string | undefined): number | string | undefined => (v === undefined ? undefined : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);

export default class FaultAdd extends PayctlCommand {
  static override description = "Add a fault rule to a group: its matching API calls (on payctl serve) get latency, an error, a dropped answer after commit, or a decline";
  static override examples = [
    '<%= config.bin %> fault add --group GROUP_ID --operation sale --action error --status 503 --first 2',
    '<%= config.bin %> fault add --group GROUP_ID --operation sale --action timeout_after_commit --count 1',
    '<%= config.bin %> fault add --group GROUP_ID --operation sale --action decline --response-code 91 --rate 0.3 --seed 42',
    "<%= config.bin %> fault add --group GROUP_ID --method GET --path '/api/v1/groups/*/transaction/*' --action latency --ms 200 --ms-max 800",
    '<%= config.bin %> fault add --group GROUP_ID --file rule.json',
  ];
  static override flags = {
    group: groupFlag,
    operation: Flags.string({ description: 'the operation the rule applies to', options: [...FAULT_OPERATIONS] }),
    method: Flags.string({ description: 'with --path: only this method', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] }),
    path: Flags.string({ description: 'request path pattern (* within a segment, ** across)' }),
    action: Flags.string({ description: 'what a fired call gets', options: [...API_FAULT_ACTIONS] }),
    rate: Flags.string({ description: 'fire on this share of matching calls (0–1), drawn from the seed' }),
    first: Flags.string({ description: 'fire on the first N matching calls' }),
    every: Flags.string({ description: 'fire on every Nth matching call' }),
    count: Flags.string({ description: 'stop after firing N times' }),
    from: Flags.string({ description: "active from this time of the group's clock (RFC 3339)" }),
    until: Flags.string({ description: "active until this time of the group's clock (RFC 3339)" }),
    seed: Flags.string({ description: 'seed of the draws (0–4294967295) [default: generated, printed]' }),
    ms: Flags.string({ description: 'latency: the delay in ms (with --ms-max, the low end of a range); timeout_after_commit: hold time' }),
    'ms-max': Flags.string({ description: 'latency: the high end of the range in ms' }),
    status: Flags.string({ description: 'error: the status answered', options: ERROR_STATUSES.map(String) }),
    'retry-after': Flags.string({ description: 'error 429/503: seconds sent as Retry-After' }),
    'response-code': Flags.string({ description: 'decline: the response code recorded', options: Object.keys(DECLINE_CODES) }),
    file: fileFlag,
  };

  async run(): Promise<ApiFaultRule> {
    const { flags } = await this.parse(FaultAdd);
    const p = await this.platform(flags.db);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : Object.fromEntries(
          Object.entries({
            operation: flags.operation,
            method: flags.method,
            path: flags.path,
            action: flags.action,
            rate: num(flags.rate),
            first: num(flags.first),
            every: num(flags.every),
            count: num(flags.count),
            from: flags.from,
            until: flags.until,
            seed: num(flags.seed),
            ms: num(flags.ms),
            ms_max: num(flags['ms-max']),
            status: num(flags.status),
            retry_after: num(flags['retry-after']),
            response_code: flags['response-code'],
          }).filter(([, v]) => v !== undefined),
        );
    const rule = await executeRaw(addFaultRule, p, contextFor(p, flags.group), withParams(body, { group_id: flags.group }));
    this.log(`Added fault rule ${rule.id}: ${faultTarget(rule)}, ${faultSchedule(rule)}: ${faultAction(rule)} (seed ${rule.seed})`);
    return rule;
  }
}
