import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  maintenanceShowResponseSchema,
  maintenanceStartResponseSchema,
  maintenanceStartSchema,
  maintenanceTargetSchema,
  messageResponseSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { actorOf, authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { MaintenanceService } from './service.js';

const tags = ['maintenance'];

/**
 * /api/rota/maintenance/api/v1. Who may start or end a window depends on its scope (the cluster:
 * platform administrators; a VM: AGENTES.UPDATE in its client), so the service checks it.
 */
export const maintenanceRoutes: FastifyPluginAsyncZod<{
  maintenance: MaintenanceService;
}> = async (app, { maintenance }) => {
  app.post(
    '/start',
    {
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Start maintenance over the cluster (platform administrators) or one VM (AGENTES.UPDATE): no new claims there, and by mode running runs finish, stop or are killed',
        body: maintenanceStartSchema,
        response: { 201: maintenanceStartResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await maintenance.start(actorOf(request), authorOf(request), request.body);
      return reply
        .code(201)
        .send({ message: translateMessage(request.lang, 'maintenance_started'), data });
    },
  );

  app.post(
    '/end',
    {
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'End the active maintenance window of the cluster or of one VM',
        body: maintenanceTargetSchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await maintenance.end(actorOf(request), authorOf(request), request.body);
      return reply.code(202).send({ message: translateMessage(request.lang, 'maintenance_ended') });
    },
  );

  app.post(
    '/show',
    {
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          "The active maintenance windows over the selected client (the cluster's and its VMs'), with the schedulings each skipped",
        body: z.object({}).optional(),
        response: { 200: maintenanceShowResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await maintenance.show(scopeOf(request)) }),
  );
};
