// Merchant groups, their processors and linked accounts, and API keys: the entities the
// operator sets up (the store's shapes), and the objects `--json` prints for them.
import { z } from 'zod';
import { timestamp } from './strings.js';
import { PRICING, PROCESSOR_TYPES, PERMISSIONS, type Permission, type Pricing } from './permissions.js';

export interface GroupEntity {
  id: string;
  name: string;
  pricing: Pricing;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface ProcessorEntity {
  id: string;
  group_id: string;
  name: string;
  /** transaction_level or merchant_level (commissions need transaction_level). */
  type: string;
  created_at: string;
}

export interface LinkedAccountEntity {
  id: string;
  group_id: string;
  processor_id: string;
  name: string;
  created_at: string;
}

/** An API key as stored: only the hash of the key (shown once at creation). */
export interface ApiKeyEntity {
  id: string;
  group_id: string;
  key_hash: string;
  prefix: string;
  permissions: Permission[];
  name: string;
  created_at: string;
  revoked_at: string | null;
}

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  pricing: z.enum(PRICING),
  status: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Group = z.output<typeof groupSchema>;

export const processorSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  name: z.string(),
  type: z.enum(PROCESSOR_TYPES),
  created_at: timestamp,
});
export type Processor = z.output<typeof processorSchema>;

export const linkedAccountSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  processor_id: z.string(),
  name: z.string(),
  created_at: timestamp,
});
export type LinkedAccount = z.output<typeof linkedAccountSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  group_id: z.string(),
  prefix: z.string().describe('The first characters of the key, to tell keys apart'),
  name: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  created_at: timestamp,
  revoked_at: timestamp.nullable(),
});
export type ApiKey = z.output<typeof apiKeySchema>;

// ---------------------------------------------------------------- operator requests

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

export const createGroupSchema = z.object({
  name: z
    .string({ error: 'is required: 1 to 100 characters' })
    .trim()
    .min(1, { error: 'must be 1 to 100 characters' })
    .max(100, { error: 'must be 1 to 100 characters' }),
  pricing: z.enum(PRICING, { error: oneOf(PRICING) }).default('flat'),
});

export const createProcessorSchema = z.object({
  type: z.enum(PROCESSOR_TYPES, { error: oneOf(PROCESSOR_TYPES) }),
  name: z.string().optional(),
});

export const createLinkedAccountSchema = z.object({
  /** A processor of the group (reported as `processor`, the command's flag). */
  processor_id: z.string(),
  name: z.string().optional(),
});

export const createApiKeySchema = z.object({
  permissions: z
    .array(z.string())
    .superRefine((given, c) => {
      if (given.length === 0) return void c.addIssue({ code: 'custom', message: 'give at least one permission' });
      const bad = given.find((x) => !(PERMISSIONS as readonly string[]).includes(x));
      if (bad !== undefined) c.addIssue({ code: 'custom', message: `"${bad}" is not one of ${PERMISSIONS.join(', ')}` });
    })
    .transform((given) => [...new Set(given)] as Permission[]),
  name: z.string().optional(),
});

export const toGroup = (g: GroupEntity): Group => ({ id: g.id, name: g.name, pricing: g.pricing, status: g.status, created_at: g.created_at, updated_at: g.updated_at });
export const toProcessor = (p: ProcessorEntity): Processor => ({ id: p.id, group_id: p.group_id, name: p.name, type: p.type as Processor['type'], created_at: p.created_at });
export const toLinkedAccount = (a: LinkedAccountEntity): LinkedAccount => ({ id: a.id, group_id: a.group_id, processor_id: a.processor_id, name: a.name, created_at: a.created_at });
export const toApiKey = (k: ApiKeyEntity): ApiKey => ({
  id: k.id, group_id: k.group_id, prefix: k.prefix, name: k.name, permissions: k.permissions, created_at: k.created_at, revoked_at: k.revoked_at,
});
