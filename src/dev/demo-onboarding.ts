// Demo data for onboarding: `payctl init --demo` adds one signup form (printed as
// signup_form_id). It is platform-wide, so a sandbox's demo leaves it out.
import type { DemoStep } from './demo-step.js';
import { createSignupForm } from '../services/onboarding/onboarding.js';
import { contextFor } from '../services/context.js';
import { execute } from '../services/use-case.js';

/** `payctl init --demo`: one signup form, printed as signup_form_id. */
export const onboardingDemoStep: DemoStep = {
  name: 'signup-form',
  async run(p) {
    const form = await execute(createSignupForm, p, contextFor(p, undefined), { name: 'Demo signup form' });
    return { signup_form_id: form.id };
  },
};
