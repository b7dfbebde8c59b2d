import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentCreateSchema,
  agentListQuerySchema,
  agentSchema,
  agentTokenResponseSchema,
  agentUpdateSchema,
  agentWithTokenSchema,
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['agents'];
const security = bearerSecurity;

/** /api/rota/node/api/v1 (DESIGN §4), guarded by AGENTES.* */
export const agentRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { agents } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List agents with their VM and connectivity',
        body: agentListQuerySchema.default({ page: 1, per_page: 20, order: 'asc', sort: 'name' }),
        response: { 200: listResponseSchema(agentSchema), ...errorResponses },
      },
    },
    async (request) => agents.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One agent',
        body: idBodySchema,
        response: { 200: dataResponseSchema(agentSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await agents.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['AGENTES.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Create an agent; the answer holds its token, shown this once',
        body: agentCreateSchema,
        response: { 201: createdResponseSchema(agentWithTokenSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await agents.create(scopeOf(request), request.body);
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
        summary: 'Rename an agent or move it to another VM',
        body: agentUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await agents.update(scopeOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/rotate_token',
    {
      config: { permissions: ['AGENTES.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Issue a new token for an agent; the old one stops working',
        body: idBodySchema,
        response: { 200: agentTokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      message: translateMessage(request.lang, 'token_rotated'),
      data: { token: await agents.rotateToken(scopeOf(request), request.body.id) },
    }),
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['AGENTES.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete an agent; its token stops working',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await agents.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
};
