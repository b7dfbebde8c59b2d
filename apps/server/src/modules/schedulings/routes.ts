import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  schedulingCreateSchema,
  schedulingListQuerySchema,
  schedulingSchema,
  schedulingUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['schedulings'];
const security = bearerSecurity;

/** /api/rota/scheduling/api/v1 (DESIGN §4), guarded by AGENDAMENTOS.* */
export const schedulingRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { schedulings } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['AGENDAMENTOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List schedulings; `deleted` picks live (default), deleted or all',
        body: schedulingListQuerySchema.default({
          page: 1,
          per_page: 20,
          order: 'asc',
          sort: 'name',
          deleted: 'not_deleted',
        }),
        response: { 200: listResponseSchema(schedulingSchema), ...errorResponses },
      },
    },
    async (request) => schedulings.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['AGENDAMENTOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One scheduling, deleted or not',
        body: idBodySchema,
        response: { 200: dataResponseSchema(schedulingSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await schedulings.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['AGENDAMENTOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Create a scheduling with the VMs it may run on',
        body: schedulingCreateSchema,
        response: { 201: createdResponseSchema(schedulingSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await schedulings.create(scopeOf(request), request.body);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      config: { permissions: ['AGENDAMENTOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a live scheduling; `vms` replaces its whole set of VMs',
        body: schedulingUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await schedulings.update(scopeOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['AGENDAMENTOS.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete a scheduling (soft: `restore` brings it back)',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await schedulings.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );

  app.post(
    '/restore',
    {
      config: { permissions: ['AGENDAMENTOS.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Bring a deleted scheduling back',
        body: idBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await schedulings.restore(scopeOf(request), request.body.id);
      return { message: translateMessage(request.lang, 'restored') };
    },
  );
};
