import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardQuerySchema, dashboardResponseSchema, hasPermissions } from '@rota/contract';
import { actorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { DashboardService } from './service.js';

/**
 * /api/rota/dashboard/api/v1: needs only a session in a client; agent and VM counts
 * only for who may list them.
 */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.post(
    '/index',
    {
      schema: {
        tags: ['dashboard'],
        security: bearerSecurity,
        summary:
          'Robots per category, executions per day, agents, VMs, the robots failing most, tasks at risk or breached',
        body: dashboardQuerySchema,
        response: { 200: dashboardResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: await dashboard.show(
        scopeOf(request),
        request.body,
        hasPermissions(actorOf(request).permissions, ['AGENTES.LIST']),
      ),
    }),
  );
};
