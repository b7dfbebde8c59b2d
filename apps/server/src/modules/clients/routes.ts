import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientCreateSchema,
  clientProfileOptionSchema,
  clientListQuerySchema,
  clientSchema,
  clientUpdateSchema,
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { ClientService } from './service.js';

const tags = ['clients'];
const security = bearerSecurity;

/**
 * /api/rota/client/api/v1: clients (tenants), for platform administrators (403 for anyone
 * else). No delete: see docs/decisions.md.
 */
export const clientRoutes: FastifyPluginAsyncZod<{ clients: ClientService }> = async (
  app,
  { clients },
) => {
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
    '/profiles',
    {
      schema: {
        tags,
        security,
        summary: "One client's profiles (to map a single sign-on group to one of them)",
        body: idBodySchema,
        response: {
          200: dataResponseSchema(z.array(clientProfileOptionSchema)),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ data: await clients.profiles(actorOf(request), request.body.id) }),
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
      const data = await clients.create(actorOf(request), request.body, authorOf(request));
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      schema: {
        tags,
        security,
        summary: 'Rename a client or change how long its executions and audit records are kept',
        body: clientUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await clients.update(actorOf(request), request.body, authorOf(request));
      return reply.status(204).send(null);
    },
  );
};
