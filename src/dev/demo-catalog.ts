// Demo data for products, partners and invoices: `payctl init --demo` adds
// product_ids, partner_ids and invoice_ids (pending invoices due 30 days from now).
import type { DemoStep } from './demo-step.js';
import { createProduct } from '../services/catalog/products.js';
import { createPartner } from '../services/catalog/partners.js';
import { createInvoice } from '../services/catalog/invoices.js';
import { contextFor } from '../services/context.js';
import { execute, executeRaw } from '../services/use-case.js';

export const catalogDemoStep: DemoStep = {
  name: 'catalog',
  async run(p, state) {
    const groupId = state.group_id;
    const products = [];
    for (const body of [
      { name: 'Espresso beans 1 kg', description: 'Single-origin, roasted this week', amount: 2400, included_tax_amount: 200, unit_of_measure: 'pc' },
      { name: 'Barista training', description: 'Half-day session on site', amount: 15000, included_tax_amount: 0, unit_of_measure: 'pc' },
      { name: 'Milk jug', description: 'Stainless steel, 600 ml', amount: 1850, included_tax_amount: 150, unit_of_measure: 'pc' },
    ]) {
      products.push(await executeRaw(createProduct, p, contextFor(p, groupId), body));
    }
    const partners = [];
    for (const body of [
      { company: 'Blue Door Cafe', first_name: 'Grace', last_name: 'Hopper', email: 'grace@bluedoor.example', line_1: '12 Harbor Rd', city: 'Portland', subdivision: 'OR', postal_code: '97201', country: 'US' },
      { company: 'Northside Bakery', first_name: 'Alan', last_name: 'Turing', email: 'alan@northside.example', line_1: '400 King St W', line_2: 'Unit 3', city: 'Toronto', subdivision: 'ON', postal_code: 'M5V 1K4', country: 'CA' },
    ]) {
      partners.push(await executeRaw(createPartner, p, contextFor(p, groupId), body));
    }
    const due = new Date(p.clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const common = { due_date: due, processor_id: state.processor_id, card_enabled: true, ach_enabled: true };
    const invoices = [
      await execute(createInvoice, p, contextFor(p, groupId), {
        ...common,
        partner_id: partners[0]!.id,
        note: 'Thank you for your business.',
        products: [{ product_id: products[0]!.id, quantity: 4 }, { product_id: products[2]!.id, quantity: 2 }],
      }),
      await execute(createInvoice, p, contextFor(p, groupId), {
        ...common,
        partner_id: partners[1]!.id,
        external_id: 'PO-1001',
        products: [{ product_id: products[1]!.id, quantity: 1 }],
      }),
    ];
    return {
      product_ids: products.map((x) => x.id),
      partner_ids: partners.map((x) => x.id),
      invoice_ids: invoices.map((x) => x.id),
    };
  },
};
