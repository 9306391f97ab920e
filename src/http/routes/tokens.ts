import type { RouteDef } from '../route.js';
import { publicAuth } from '../route.js';
import { mintToken } from '../../services/tokens/tokens.js';
import { tokenRequestSchema, tokenResponseSchema } from '../../domain/tokens.js';
import { executeRaw } from '../../services/use-case.js';

export const tokenRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/v1/tokens',
    summary: 'Tokenize a card or bank account',
    description: 'No API key; CORS-enabled for browser pages. Minted tokens are single-use and expire after 15 minutes of platform time.',
    tag: 'Tokenizer',
    extension: true,
    auth: publicAuth,
    body: tokenRequestSchema,
    response: tokenResponseSchema,
    handler: (c) => executeRaw(mintToken, c.platform, c.ctx, c.body),
  },
];
