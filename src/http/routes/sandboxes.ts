// Sandboxes (extension): groups for test suites, with their own keys, data and clock.
// Authorised by the sandbox admin token that `payctl serve` prints; moving a sandbox's
// clock also by a manage_transactions key of that group.
import { ENV } from '../../config/env.js';
import { adminAuth, adminOrKey, answerBudget, JsonResponse, type RouteDef, route } from '../route.js';
import { inboxListSchema, inboxQuerySchema } from '../../domain/webhooks.js';
import { listInbox } from '../../services/webhooks/inbox.js';
import {
  createSandboxSchema,
  deletedSandboxSchema,
  forkingSandboxSchema,
  forkSandboxSchema,
  groupClockSchema,
  moveClockSchema,
  sandboxListSchema,
  sandboxSchema,
  sandboxSummarySchema,
} from '../../domain/sandboxes.js';
import { createSandbox, deleteSandbox, forkSandbox, listSandboxes, moveGroupClock, showGroupClock, showSandbox } from '../../services/sandboxes/sandboxes.js';
import { execute, executeRaw, withParams } from '../../services/use-case.js';
import { getRecording, startRecording, stopRecording } from '../../services/sandboxes/recordings.js';
import { recordingJsonText } from '../recording-json.js';
import { recordingQuerySchema, recordingSchema, recordingSummarySchema } from '../../domain/recording.js';
import { StreamResponse } from '../route.js';
import { once } from 'node:events';
import { JOURNAL_MAX_BYTES, JOURNAL_MAX_ENTRIES, journalPageSchema, requestsQuerySchema } from '../../domain/journal.js';
import { listRequests } from '../../services/journal/list.js';

const tag = 'Sandboxes';
const carriesKeys = 'the answer carries new API keys, which are shown once and never stored (a replay could not repeat them)';

export const sandboxRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/v1/sandboxes',
    summary: 'Create a sandbox: a group with a processor, a linked account, one key per permission kind and its own clock',
    description:
      'demo: true adds the demo data of `payctl init --demo` inside the sandbox. clock sets the start time of its clock (default: the platform clock). webhooks: "collect" keeps its webhooks in its inbox (GET …/inbox), signed with `webhook_secret`. ttl (`1h`, `30m` or seconds; 1s to 30d) has the server drop it after that long without a request, in real time (default: kept until dropped; docs/sandboxes.md). The answer has the shape `payctl init --demo --json` prints; keys and webhook_secret are shown only here.',
    tag,
    extension: true,
    auth: adminAuth,
    body: createSandboxSchema,
    response: sandboxSchema,
    status: 201,
    noIdempotency: carriesKeys,
    // `demo` seeds it with `payctl init --demo`'s data: the server was handed the seeder (ServerOptions.seedDemo).
    handler: (c) => executeRaw(createSandbox(c.seedDemo), c.platform, c.ctx, c.body ?? {}),
  },
  {
    method: 'GET',
    path: '/api/v1/sandboxes',
    summary: 'List sandboxes with their clocks',
    tag,
    extension: true,
    auth: adminAuth,
    response: sandboxListSchema,
    handler: (c) => execute(listSandboxes, c.platform, c.ctx, {}),
  },
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id',
    summary: 'One sandbox: its clock and status, and while it is being forked how far the copy is',
    description: 'After a fork answered 202, poll this until status is active (fork.rows_copied of fork.rows_total meanwhile); its keys work from then on.',
    tag,
    extension: true,
    auth: adminAuth,
    response: sandboxSummarySchema,
    handler: (c) => execute(showSandbox, c.platform, c.ctx, { group_id: c.params.group_id }),
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/sandboxes/:group_id',
    summary: 'Drop a sandbox and every row of it, in short chunks that let other groups\' writes through (its keys stop working at once); a fork or import still writing stops',
    tag,
    extension: true,
    auth: adminAuth,
    response: deletedSandboxSchema,
    handler: (c) => execute(deleteSandbox, c.platform, c.ctx, { group_id: c.params.group_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/sandboxes/:group_id/fork',
    summary: 'Copy a sandbox (every row, new ids, same relationships and clock) into a new sandbox',
    description:
      'The new sandbox gets its own key per permission kind (keys are not copied), no idempotency records and no payment-link sessions. id_map gives the new id of each processor, linked account, customer, stored payment method, plan, subscription, product, partner, invoice and payment link. ' +
      'The copy runs in short chunks that let other groups\' writes through. 201 when it is whole within the answer budget (10 s, PAYCTL_FORK_ANSWER_MS); else 202 with the new sandbox\'s id and keys (issued at the start) and its progress (`fork`): ' +
      'the copy goes on in the server, and after a restart; poll GET /api/v1/sandboxes/{group_id} until status is active (no id_map then: look objects up by the new keys). Until then its keys are refused with 409. A sandbox still forking cannot be forked (409).',
    tag,
    extension: true,
    auth: adminAuth,
    body: forkSandboxSchema,
    response: sandboxSchema,
    status: 201,
    otherStatuses: { 202: 'Accepted: the new sandbox (status forking) with its keys and how far the copy is; it goes on after this answer' },
    otherResponses: { 202: forkingSandboxSchema },
    noIdempotency: carriesKeys,
    handler: async (c) => {
      const sandbox = await executeRaw(forkSandbox, c.platform, c.ctx, withParams(c.body ?? {}, { group_id: c.params.group_id }), answerBudget(c.platform, ENV.forkAnswerMs));
      return sandbox.status === 'forking' ? new JsonResponse(202, sandbox) : sandbox;
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id/clock',
    summary: "A group's clock",
    tag,
    extension: true,
    auth: adminOrKey('manage_transactions', 'view_transactions'),
    response: groupClockSchema,
    handler: (c) => execute(showGroupClock, c.platform, c.ctx, { group_id: c.params.group_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/sandboxes/:group_id/clock',
    summary: "Move one group's clock forward (or change its mode) and run that group's due work (billing, settlement, retries, expiry)",
    description:
      '{"advance": "30d"} or {"set": "2027-01-01T00:00:00Z"}. Only this group moves; time never moves backwards (a set before its time now is a 400 naming set). ' +
      'With "mode" (running, frozen, or accelerated with "rate"), alone or with a move, the clock runs in that mode from its time then: frozen stands still until moved (docs/clock.md). ' +
      'The due work runs in short chunks that let other groups\' writes through. 200 when the group has caught up; 202 when it has not after the answer budget ' +
      '(10 s, PAYCTL_CLOCK_ANSWER_MS): the work goes on in the server, `work` is what was done so far and `catch_up` what is left; poll GET …/clock until catch_up.status is caught_up.',
    tag,
    extension: true,
    auth: adminOrKey('manage_transactions'),
    body: moveClockSchema,
    response: groupClockSchema,
    otherStatuses: { 202: "Accepted: the clock moved; the group's due work is still running (catch_up.status running) and goes on after this answer" },
    handler: async (c) => {
      const state = await executeRaw(moveGroupClock, c.platform, c.ctx, withParams(c.body, { group_id: c.params.group_id }), answerBudget(c.platform, ENV.clockAnswerMs));
      return state.catch_up?.status === 'running' ? new JsonResponse(202, state) : state;
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id/inbox',
    summary: "The webhooks the group's collect endpoints kept, newest first, each as a receiver would have got it",
    description:
      'A sandbox made with {"webhooks": "collect"} (or any group with a webhook endpoint of kind collect) keeps each delivery here instead of POSTing it: `body` is the raw text a receiver would get and `headers` its Standard Webhooks headers, signed with the secret its create answer showed (`webhook_secret`), so a test in any language verifies it with its standardwebhooks library. ' +
      'Faults of the endpoint apply (a drop keeps nothing, a duplicate keeps it twice). `types` filters by event type; page with `starting_after`; `wait` (e.g. 5s, at most 30s) answers as soon as `count` messages exist, else at the deadline with what there is. docs/testing.md.',
    tag,
    extension: true,
    auth: adminOrKey('manage_webhooks'),
    query: inboxQuerySchema,
    response: inboxListSchema,
    handler: (c) => executeRaw(listInbox, c.platform, c.ctx, withParams(c.query, { group_id: c.params.group_id }), { signal: c.signal }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/sandboxes/:group_id/recording',
    summary: "Start recording every API call of the sandbox (method, path, body, the answer's status and body) for a scenario file",
    description:
      'A new recording replaces the last one. Calls of the group are recorded: those naming it in their path or made with its keys, its clock moves and fault rules, and public calls (tokenize, pay pages, onboarding) that carry the header Payctl-Sandbox: <group_id>. ' +
      'Secrets are never recorded: API keys, webhook secrets, card and bank numbers, CVVs (a card appears as the token used). docs/scenarios.md.',
    tag,
    extension: true,
    auth: adminOrKey('manage_transactions'),
    response: recordingSummarySchema,
    status: 201,
    handler: (c) => execute(startRecording, c.platform, c.ctx, { group_id: c.params.group_id }),
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/sandboxes/:group_id/recording',
    summary: 'Stop recording (the calls stay until the next recording starts or the sandbox is dropped)',
    tag,
    extension: true,
    auth: adminOrKey('manage_transactions'),
    response: recordingSummarySchema,
    handler: (c) => execute(stopRecording, c.platform, c.ctx, { group_id: c.params.group_id }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id/recording',
    summary: 'The recorded calls, or with format=scenario the scenario file they make (application/yaml)',
    description:
      'format=scenario: literal ids become ${name.id} references to the step whose answer first carried them, the demo\'s ids ${demo.*}, clock moves and fault rules steps of their own, each recorded status an expect; replay it with `payctl scenario run`.',
    tag,
    extension: true,
    auth: adminOrKey('manage_transactions'),
    query: recordingQuerySchema,
    response: recordingSchema,
    handler: async (c) => {
      const out = await executeRaw(getRecording, c.platform, c.ctx, withParams(c.query, { group_id: c.params.group_id }));
      return 'scenario' in out ? streamText(out.scenario, 'application/yaml; charset=utf-8') : streamText(recordingJsonText(out.json), 'application/json; charset=utf-8');
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id/requests',
    summary: "The request journal: a group's API calls (method, path, route, status, latency, Idempotency-Key, fault, bodies masked), oldest first",
    description:
      "Any group's id: a sandbox, the demo group, a merchant's. Every API call on the group is journaled — those naming it in their path or made with its keys, and public calls naming it in Payctl-Sandbox — " +
      `its bodies with every sensitive field masked (card and bank numbers, CVVs, tax ids, keys, secrets). The journal keeps a group's last ${JOURNAL_MAX_ENTRIES} calls (at most ${JOURNAL_MAX_BYTES / 1024 / 1024} MiB); ` +
      'data.dropped counts those it no longer holds. Newest last; pass the last id as starting_after for the next page. docs/journal.md.',
    tag,
    extension: true,
    auth: adminAuth,
    query: requestsQuerySchema,
    response: journalPageSchema,
    handler: (c) => executeRaw(listRequests, c.platform, c.ctx, withParams(c.query, { group_id: c.params.group_id }), { signal: c.signal }),
  }),
];

/** JSON text written as it is made (a recording, a page of calls at a time). */
function streamText(pieces: AsyncIterable<string>, type: string): StreamResponse {
  return new StreamResponse(async ({ res, signal }) => {
    res.writeHead(200, { 'Content-Type': type });
    try {
      for await (const text of pieces) {
        if (signal.aborted) break;
        if (!res.write(text)) await once(res, 'drain', { signal });
      }
    } finally {
      res.end();
    }
  });
}
