// Recurring billing domain: plans, subscriptions, billing calendar, proration, retries.
export * from './constants.js';
export * from './calendar.js';
export * from './proration.js';
export * from './charges.js';
export * from './requests.js';
export * from './resources.js';
export * from './entities.js';
export * from './subscription-calendar.js';
export * from './update-bodies.js';
