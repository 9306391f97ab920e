// The integration under test: a small merchant's code that charges a cart and starts a
// monthly membership through the payctl API. Nothing here knows about sandboxes: it
// gets a base URL, a group and a key, as it would in production.
export interface ShopConfig {
  url: string;
  groupId: string;
  accountId: string;
  processorId: string;
  /** API keys by permission kind (a sandbox gives one per kind). */
  keys: Record<string, string>;
}

export function shop(cfg: ShopConfig) {
  const call = async (method: string, path: string, body?: unknown, key = cfg.keys.manage_transactions) => {
    const res = await fetch(`${cfg.url}/api/v1/groups/${cfg.groupId}${path}`, {
      method,
      headers: { authorization: key!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.error?.message}`);
    return json;
  };
  const email = 'ada@example.com';
  const address = { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email };
  const recurring = `/processing/${cfg.accountId}/recurring`;

  return {
    /** Charge a cart; returns the payment's id and status. */
    async checkout(cents: number, token: string) {
      const t = await call('POST', '/transaction', {
        type: 'sale', source: 'api', processor_id: cfg.processorId, currency: 'USD', email_address: email, email_receipt: false,
        amounts: { requested_amount: cents }, billing_address: address, payment_details: { token },
      });
      return { id: t.id as string, status: t.status as string };
    },
    paymentStatus: async (id: string) => (await call('GET', `/transaction/${id}`)).status as string,
    /** A monthly membership for a new customer, paid by card token. */
    async startMembership(cents: number, token: string) {
      const customer = await call('POST', '/customers', { email }, cfg.keys.manage_customers);
      const plan = await call('POST', `${recurring}/plans`, { name: 'Membership', amount: cents, billing_cycle: 'monthly', duration: 0 });
      return call('POST', `${recurring}/subscription`, { plan_id: plan.id, customer_id: customer.id, payment_details: { token } });
    },
    membership: (id: string) => call('GET', `${recurring}/subscription/${id}`),
  };
}
