// The dashboard's pages and actions: a method, a path pattern (named groups are the path's
// ids) and the view that answers. GETs read; every POST changes something and answers a
// redirect back to the page it came from (index.ts has checked its CSRF token and Origin).
import type { Answer } from './respond.js';
import { pathId, type ViewContext } from './context.js';
import { createSandboxAction, dropAction, dropConfirmPage, exportDownload, forkAction, groupsPage } from './views/groups.js';
import { objectListPage } from './views/objects.js';
import { objectPage } from './views/object-page.js';
import { searchPage } from './views/search.js';
import { eventRows, eventsLive, eventsPage, resendAction } from './views/events.js';
import { clockAction, clockPanelFragment } from './views/clock.js';
import { addFaultAction, faultsPage, removeFaultAction } from './views/faults.js';
import { addWebhookFaultAction, removeWebhookFaultAction } from './views/webhook-faults.js';
import { requestRows, requestsLive, requestsPage } from './views/requests.js';
import { requestPage } from './views/request-page.js';
import { sendAgainAction } from './views/send-again.js';
import { reportsPage } from './views/reports.js';
import { recordingAction, recordingPage, scenarioDownload } from './views/recording.js';
import { Redirect } from './respond.js';

export type { ViewContext } from './context.js';

interface DashboardRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  view(c: ViewContext): Promise<Answer>;
}

const G = '/dashboard/groups/(?<group_id>[^/]+)';
const at = (method: DashboardRoute['method'], path: string, view: DashboardRoute['view']): DashboardRoute => ({ method, pattern: new RegExp(`^${path}$`), view });

export const ROUTES: DashboardRoute[] = [
  at('GET', '/dashboard', groupsPage),
  at('POST', '/dashboard/sandboxes', createSandboxAction),
  at('GET', '/dashboard/search', searchPage),
  at('GET', G, async (c) => new Redirect(`/dashboard/groups/${encodeURIComponent(pathId(c, 'group_id'))}/transactions`)),
  at('POST', `${G}/fork`, forkAction),
  at('GET', `${G}/export`, exportDownload),
  at('GET', `${G}/drop`, dropConfirmPage),
  at('POST', `${G}/drop`, dropAction),
  at('GET', `${G}/(?<kind>transactions|customers|subscriptions|invoices|payment-links)`, objectListPage),
  at('GET', `${G}/objects/(?<kind>[a-z_-]+)/(?<object_id>[^/]+)`, objectPage),
  at('GET', `${G}/requests`, requestsPage),
  at('GET', `${G}/requests/rows`, requestRows),
  at('GET', `${G}/requests/live`, requestsLive),
  at('GET', `${G}/requests/(?<request_id>[^/]+)`, requestPage),
  at('POST', `${G}/requests/(?<request_id>[^/]+)/send-again`, sendAgainAction),
  at('GET', `${G}/events`, eventsPage),
  at('GET', `${G}/events/rows`, eventRows),
  at('GET', `${G}/events/live`, eventsLive),
  at('POST', `${G}/events/(?<event_id>[^/]+)/resend`, resendAction),
  at('GET', `${G}/clock`, clockPanelFragment),
  at('POST', `${G}/clock`, clockAction),
  at('GET', `${G}/faults`, faultsPage),
  at('POST', `${G}/faults`, addFaultAction),
  at('POST', `${G}/faults/(?<fault_id>[^/]+)/remove`, removeFaultAction),
  at('POST', `${G}/faults/webhook`, addWebhookFaultAction),
  at('POST', `${G}/faults/webhook/(?<endpoint_id>[^/]+)/(?<fault_id>[^/]+)/remove`, removeWebhookFaultAction),
  at('GET', `${G}/reports`, reportsPage),
  at('GET', `${G}/recording`, recordingPage),
  at('POST', `${G}/recording`, recordingAction),
  at('GET', `${G}/recording/scenario.yaml`, scenarioDownload),
];
