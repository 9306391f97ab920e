// The route table: every route of the server. A new resource adds its file and one
// line here; the OpenAPI document and the isolation tests are generated from this list.
import type { RouteDef } from '../route.js';
import { tokenRoutes } from './tokens.js';
import { customerRoutes } from './customers.js';
import { metaRoutes } from './meta.js';
import { paymentLinkRoutes } from './payment-links.js';
import { catalogRoutes } from './catalog.js';
import { transactionRoutes } from './transactions.js';
import { recurringRoutes } from './recurring.js';
import { onboardingRoutes } from './onboarding.js';
import { reportingRoutes } from './reporting.js';
import { sandboxRoutes } from './sandboxes.js';
import { sandboxFileRoutes } from './sandbox-files.js';
import { eventRoutes } from './events.js';
import { webhookRoutes } from './webhooks.js';
import { faultRoutes } from './faults.js';
import { healthRoutes } from './health.js';

export function allRoutes(): RouteDef[] {
  const all: RouteDef[] = [...tokenRoutes, ...customerRoutes, ...transactionRoutes];
  all.push(...catalogRoutes);
  all.push(...paymentLinkRoutes);
  all.push(...recurringRoutes);
  all.push(...onboardingRoutes);
  all.push(...reportingRoutes);
  all.push(...sandboxRoutes);
  all.push(...sandboxFileRoutes);
  all.push(...eventRoutes);
  // Before the webhook routes: a suite walking the table meets an endpoint's faults before its delete.
  all.push(...faultRoutes);
  all.push(...webhookRoutes);
  all.push(...metaRoutes(() => all));
  all.push(...healthRoutes);
  return all;
}
