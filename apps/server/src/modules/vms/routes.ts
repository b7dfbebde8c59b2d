import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  translateMessage,
  vmCountSchema,
  vmCreateSchema,
  vmListQuerySchema,
  vmSchema,
  vmUpdateSchema,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['vms'];
const security = bearerSecurity;

/** /api/rota/vm/api/v1 (DESIGN §4), guarded by AGENTES.* */
export const vmRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { vms } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List VMs with their agent count and connectivity',
        body: vmListQuerySchema.default({ page: 1, per_page: 20, order: 'asc', sort: 'name' }),
        response: { 200: listResponseSchema(vmSchema), ...errorResponses },
      },
    },
    async (request) => vms.list(scopeOf(request), request.body),
  );

  app.post(
    '/count',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'How many VMs the client has, active (an agent heard from) and inactive',
        response: { 200: vmCountSchema, ...errorResponses },
      },
    },
    async (request) => vms.count(scopeOf(request)),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One VM',
        body: idBodySchema,
        response: { 200: dataResponseSchema(vmSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await vms.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['AGENTES.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Create a VM',
        body: vmCreateSchema,
        response: { 201: createdResponseSchema(vmSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await vms.create(scopeOf(request), request.body);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      config: { permissions: ['AGENTES.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a VM',
        body: vmUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await vms.update(scopeOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['AGENTES.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete a VM without agents; it leaves the schedulings that used it',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await vms.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
};
