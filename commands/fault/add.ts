import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { numberOrText, scheduleBody, scheduleFlags } from '../../src/cli/flags/fault-schedule.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams } from '../../src/services/use-case.js';
import { addFaultRule } from '../../src/services/faults/rules.js';
import { API_FAULT_ACTIONS, DECLINE_CODES, ERROR_STATUSES, FAULT_OPERATIONS, type ApiFaultRule } from '../../src/domain/faults.js';
import { faultAction, faultSchedule, faultTarget } from '../../src/render/faults.js';

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
    ...scheduleFlags('matching call'),
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
            ...scheduleBody(flags),
            ms: numberOrText(flags.ms),
            ms_max: numberOrText(flags['ms-max']),
            status: numberOrText(flags.status),
            retry_after: numberOrText(flags['retry-after']),
            response_code: flags['response-code'],
          }).filter(([, v]) => v !== undefined),
        );
    const rule = await executeRaw(addFaultRule, p, contextFor(p, flags.group), withParams(body, { group_id: flags.group }));
    this.log(`Added fault rule ${rule.id}: ${faultTarget(rule)}, ${faultSchedule(rule)}: ${faultAction(rule)} (seed ${rule.seed})`);
    return rule;
  }
}
