// A sandbox's webhook inbox in this process's collector (./webhooks.ts): a new sandbox's
// endpoint pointing at it, a fork's or an import's copy of its source's endpoint pointed
// here, or none (`webhooks: false`).
import { createClient } from '../client/index.js';
import type { components } from '../client/api.js';
import { collector, type Webhooks } from './webhooks.js';
import { failed, OWN_CONNECTION, type ServerHandle } from './calls.js';

type Schemas = components['schemas'];

/** The collector's inbox for a new sandbox, and the sandbox's endpoint pointing at it (every event type). */
export async function openInbox(url: string, sb: Schemas['Sandbox']): Promise<Webhooks> {
  const c = await collector();
  const endpoints = createClient({ baseUrl: url, key: sb.keys.manage_webhooks, headers: OWN_CONNECTION });
  const r = await endpoints.POST('/api/v1/groups/{group_id}/webhook_endpoints', {
    params: { path: { group_id: sb.group_id } },
    body: { url: c.urlOf(sb.group_id), enabled_events: ['*'], description: 'payctl/testing webhook collector' },
  });
  if (!r.data?.secret) throw failed(`adding the webhook collector to sandbox ${sb.group_id}`, { status: r.response.status, headers: r.response.headers, body: r.error });
  return c.open(sb.group_id, r.data.secret) as unknown as Webhooks;
}

/** The path of a collector endpoint (this process's or the one a file was exported from). */
const COLLECTOR_PATH = /^http:\/\/127\.0\.0\.1:\d+\/payctl\/[^/]+$/;

/**
 * A fork's or an import's webhooks: its copy of the source's collector endpoint is pointed
 * at this process's collector, with a secret known here (the import's answer has the new
 * secrets; a fork's is rolled); without such a copy, a new endpoint.
 */
export async function repointInbox(server: ServerHandle, sb: Schemas['Sandbox'], secrets: Record<string, string> = {}): Promise<Webhooks> {
  const c = await collector();
  const api = createClient({ baseUrl: server.url, key: sb.keys.manage_webhooks, headers: OWN_CONNECTION });
  const group = { group_id: sb.group_id };
  const list = await api.GET('/api/v1/groups/{group_id}/webhook_endpoints', { params: { path: group, query: { limit: 100 } } });
  const copy = list.data?.data.items.find((e) => COLLECTOR_PATH.test(e.url));
  if (!copy) return openInbox(server.url, sb);
  const path = { ...group, endpoint_id: copy.id };
  const moved = await api.PATCH('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}', { params: { path }, body: { url: c.urlOf(sb.group_id) } });
  if (!moved.data) throw failed(`pointing sandbox ${sb.group_id}'s webhook endpoint at the collector`, { status: moved.response.status, headers: moved.response.headers, body: moved.error });
  let secret = secrets[copy.id];
  if (secret === undefined) {
    const rolled = await api.POST('/api/v1/groups/{group_id}/webhook_endpoints/{endpoint_id}/rotate_secret', { params: { path } });
    if (!rolled.data?.secret) throw failed(`rolling the secret of sandbox ${sb.group_id}'s webhook endpoint`, { status: rolled.response.status, headers: rolled.response.headers, body: rolled.error });
    secret = rolled.data.secret;
  }
  return c.open(sb.group_id, secret) as unknown as Webhooks;
}

/** `webhooks: false`: every use says how to get them. */
export function noWebhooks(groupId: string): Webhooks {
  const refuse = (): never => {
    throw new Error(`sandbox ${groupId} was made with webhooks: false: it has no webhook collector`);
  };
  return { next: async () => refuse(), none: async () => refuse(), all: refuse, clear: refuse };
}
