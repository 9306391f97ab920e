// The permission kinds of API keys (spec "Authentication", docs/decisions.md#api-keys).
import { z } from 'zod';

export const PERMISSIONS = [
  'manage_transactions',
  'view_transactions',
  'manage_products',
  'manage_invoices',
  'view_invoices',
  'manage_customers',
  'manage_partners',
  'manage_webhooks',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const permissionSchema = z.enum(PERMISSIONS, { error: `must be one of ${PERMISSIONS.join(', ')}` });

export const PRICING = ['flat', 'interchange_plus'] as const;
export type Pricing = (typeof PRICING)[number];

export const PROCESSOR_TYPES = ['transaction_level', 'merchant_level'] as const;
export type ProcessorType = (typeof PROCESSOR_TYPES)[number];
