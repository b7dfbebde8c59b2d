import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  clientCreateSchema,
  clientListQuerySchema,
  clientSchema,
  clientUpdateSchema,
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['clients'];
const security = bearerSecurity;

/**
 * /api/rota/client/api/v1: clients (tenants), for platform administrators (403 for anyone
 * else). No delete: see docs/decisions.md.
 */
export const clientRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { clients, audit } = services;
  const snapshot = async (request: FastifyRequest, id: number) => {
    try {
      return await clients.show(actorOf(request), id);
    } catch {
      return null;
    }
  };

  app.post(
    '/index',
    {
      schema: {
        tags,
        security,
        summary: 'List every client, with its number of users',
        body: clientListQuerySchema,
        response: { 200: listResponseSchema(clientSchema), ...errorResponses },
      },
    },
    async (request) => clients.list(actorOf(request), request.body),
  );

  app.post(
    '/show',
    {
      schema: {
        tags,
        security,
        summary: 'One client',
        body: idBodySchema,
        response: { 200: dataResponseSchema(clientSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await clients.show(actorOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      schema: {
        tags,
        security,
        summary: 'Create a client; its creator becomes a member with its Administrator profile',
        body: clientCreateSchema,
        response: { 201: createdResponseSchema(clientSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await clients.create(actorOf(request), request.body);
      await audit.record(request, {
        action: 'create',
        entity: 'client',
        entity_id: data.rota_clients_id,
        after: data,
        clientId: data.rota_clients_id,
      });
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      schema: {
        tags,
        security,
        summary: 'Rename a client',
        body: clientUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.body;
      const before = await snapshot(request, id);
      await clients.update(actorOf(request), request.body);
      await audit.record(request, {
        action: 'update',
        entity: 'client',
        entity_id: id,
        before,
        after: await snapshot(request, id),
        clientId: id,
      });
      return reply.status(204).send(null);
    },
  );
};
