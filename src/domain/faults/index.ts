// Fault injection as pure rules: a sandbox's rules on its own API calls (api-rules.ts)
// and on its webhook deliveries (webhook-rules.ts), the schedule both share and its
// seeded draws (schedule.ts), and what a fired API rule does (effects.ts). No I/O here:
// services/faults keeps the rules and their counters; the HTTP layer reads the one-off
// Payctl-Simulate header and knows which route is which operation (src/http/faults/).
export * from './schedule.js';
export * from './api-rules.js';
export * from './effects.js';
export * from './webhook-rules.js';
