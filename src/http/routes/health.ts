// Probes (extension): what a CI job, a container runtime or a load balancer asks before
// sending traffic. Outside /api/v1 (where probes are looked for), no key. Both are
// `probe` routes: the dispatcher answers them without its store reads, so /health
// answers while the store does not, and /ready says why it does not.
import { publicAuth, type RouteDef } from '../route.js';
import { healthSchema, readinessSchema } from '../../domain/health.js';
import { checkReadiness } from '../../services/health.js';
import { execute } from '../../services/use-case.js';

const tag = 'Meta';

export const healthRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/health',
    summary: 'Liveness: the server process answers',
    description: 'No API key. 200 {"status":"ok"} whenever the process answers HTTP, whatever the state of its store (ask /ready for that).',
    tag,
    extension: true,
    auth: publicAuth,
    probe: true,
    response: healthSchema,
    handler: async () => ({ status: 'ok' }),
  },
  {
    method: 'GET',
    path: '/ready',
    summary: 'Readiness: the store answers and its schema is current',
    description:
      'No API key. 200 when the store answers a read (within 2 s) and its schema version is the one this payctl needs; else 503 with the reason in the error message. `payctl/testing` and CI jobs wait on this before their first call.',
    tag,
    extension: true,
    auth: publicAuth,
    probe: true,
    unavailable: 'Not ready: the store does not answer, its schema version is not the one this payctl needs, or the server is shutting down (the message says which)',
    response: readinessSchema,
    handler: (c) => execute(checkReadiness, c.platform, c.ctx, {}),
  },
];
