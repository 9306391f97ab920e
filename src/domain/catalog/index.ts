// Catalog domain: products, partners and invoices, one module each (the shared fields
// in fields.ts, an invoice's line rules in invoice-lines.ts).
export * from './fields.js';
export * from './products.js';
export * from './partners.js';
export * from './invoices.js';
export * from './invoice-lines.js';
