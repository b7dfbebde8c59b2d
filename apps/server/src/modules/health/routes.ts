import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { errorResponseSchema, healthResponseSchema } from '@rota/contract';
import type { Services } from '../../http/services.js';

export const healthRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Answers ok once the database answers',
        response: { 200: healthResponseSchema, 500: errorResponseSchema },
      },
    },
    async () => {
      await services.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );
};
