// Products, invoices (with the public invoice page) and partners, registered together.
import type { RouteDef } from '../route.js';
import { productRoutes } from './products.js';
import { invoiceRoutes } from './invoices.js';
import { partnerRoutes } from './partners.js';

export const catalogRoutes: RouteDef[] = [...productRoutes, ...invoiceRoutes, ...partnerRoutes];
