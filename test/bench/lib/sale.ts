// The sale the bench scenarios send: a card sale of $19.99 with a billing address, no receipt.
export const benchSale = (processorId: string) => ({
  type: 'sale',
  source: 'api',
  processor_id: processorId,
  currency: 'USD',
  email_address: 'bench@example.com',
  email_receipt: false,
  amounts: { requested_amount: 1999 },
  billing_address: { first_name: 'Bench', last_name: 'Mark', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'bench@example.com' },
  payment_details: { token: 'tok_visa' },
});

/** The same sale as the request body's text. */
export const benchSaleJson = (processorId: string): string => JSON.stringify(benchSale(processorId));
