// Demo data for payment links: `payctl init --demo` adds payment_link_ids (two
// available links: a fixed amount and an open amount); init prints the first's pay page.
import type { DemoStep } from './demo-step.js';
import { createPaymentLink } from '../services/payment-links/payment-links.js';
import { contextFor } from '../services/context.js';
import { execute } from '../services/use-case.js';

export const paymentLinksDemoStep: DemoStep = {
  name: 'payment-links',
  async run(p, state) {
    const fixed = await execute(createPaymentLink, p, contextFor(p, state.group_id), {
      processor_id: state.processor_id,
      amount: 2500,
      description: 'Espresso tasting for two',
    });
    const open = await execute(createPaymentLink, p, contextFor(p, state.group_id), {
      processor_id: state.processor_id,
      open_amount: true,
      description: 'Tip the baristas',
      ach_enabled: true,
    });
    return { payment_link_ids: [fixed.id, open.id] };
  },
};
