import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  schedulingVmCreateSchema,
  schedulingVmListQuerySchema,
  schedulingVmSchema,
  translateMessage,
} from '@rota/contract';
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { SchedulingVmService } from './vm-service.js';

const tags = ['schedulings'];
const security = bearerSecurity;

/**
 * /api/rota/scheduling/vms/api/v1: the VMs of one scheduling. Adding or removing one changes
 * the scheduling, so both need AGENDAMENTOS.UPDATE, as `update {vms}` does.
 */
export const schedulingVmRoutes: FastifyPluginAsyncZod<{
  schedulingVms: SchedulingVmService;
}> = async (app, { schedulingVms }) => {
  app.post(
    '/index',
    {
      config: { permissions: ['AGENDAMENTOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'The VMs a scheduling may run on',
        body: schedulingVmListQuerySchema,
        response: { 200: listResponseSchema(schedulingVmSchema), ...errorResponses },
      },
    },
    async (request) => schedulingVms.list(scopeOf(request), request.body),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['AGENDAMENTOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Let a live scheduling run on one more VM',
        body: schedulingVmCreateSchema,
        response: { 201: createdResponseSchema(schedulingVmSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await schedulingVms.create(scopeOf(request), request.body, authorOf(request));
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['AGENDAMENTOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Take a VM out of a live scheduling',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await schedulingVms.remove(scopeOf(request), request.body.id, authorOf(request));
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
};
