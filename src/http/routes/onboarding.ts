import type { RouteDef } from '../route.js';
import { JsonResponse, publicAuth } from '../route.js';
import { submitSignupEntry } from '../../services/onboarding/onboarding.js';
import { executeRaw } from '../../services/use-case.js';
import { signupEntrySchema } from '../../domain/onboarding.js';
import { signupEntryResultSchema } from '../../domain/onboarding/response.js';

export const onboardingRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/v1/processing/signup_entry',
    summary: 'Onboard a business',
    description:
      'No API key. Creates the signup entry and its business account (a group in pending_review) and sends a confirmation e-mail to business.email. ' +
      '201 Created; 202 when the e-mail could not be sent (the entry exists; the caller should contact support). ' +
      'A 400 lists every violated rule with its field path. ssn, itin and ein are stored masked and never returned.',
    tag: 'Onboarding',
    auth: publicAuth,
    body: signupEntrySchema,
    response: signupEntryResultSchema,
    status: 201,
    successDescription: 'Created: the entry, its business account and the confirmation e-mail (email_delivery sent or stored)',
    otherStatuses: { 202: 'Accepted: the entry exists but the confirmation e-mail could not be sent (email_delivery failed); contact support' },
    handler: async (c) => {
      const outcome = await executeRaw(submitSignupEntry, c.platform, c.ctx, { entry: c.body });
      return outcome.status === 201 ? outcome.body : new JsonResponse(outcome.status, outcome.body);
    },
  },
];
