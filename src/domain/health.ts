// What the probes answer (GET /health, GET /ready): the shapes a CI job, a container
// runtime or a load balancer reads. Not ready is the Error body with status 503.
import { z } from 'zod';

export const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The server process is up and answering' });

export const readinessSchema = z
  .object({
    status: z.literal('ready'),
    store: z.enum(['sqlite', 'postgres']).describe('The store this server runs on'),
    schema_version: z.number().int().describe("The database's schema version: the one this payctl needs"),
  })
  .meta({ id: 'Readiness', description: 'The store answers and its schema is current: the server can take requests' });
export type Readiness = z.output<typeof readinessSchema>;
