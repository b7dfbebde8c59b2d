import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, healthResponseSchema } from '@rota/contract';

import { AppError } from '../../lib/errors.js';

export const healthRoutes: FastifyPluginAsyncZod<{
  /** Rejects when the database does not answer. */
  probe: () => Promise<unknown>;
}> = async (app, { probe }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Answers ok once the database answers; 503 while it does not',
        response: { 200: healthResponseSchema, 503: errorResponseSchema },
      },
    },
    async (request) => {
      try {
        await probe();
      } catch (error) {
        // A load balancer reads 503 as "take this instance out", which is what it is.
        request.log.warn({ err: error }, 'health: the database does not answer');
        throw new AppError('service_unavailable');
      }
      return { status: 'ok' as const };
    },
  );
};
