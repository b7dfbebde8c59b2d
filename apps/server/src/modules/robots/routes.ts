import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  robotCreateSchema,
  robotListQuerySchema,
  robotSchema,
  robotUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['robots'];
const security = bearerSecurity;

/** /api/rota/robot/api/v1 (DESIGN §4), guarded by ROBOS.* */
export const robotRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { robots } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['ROBOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List robots',
        body: robotListQuerySchema.default({ page: 1, per_page: 20, order: 'asc', sort: 'name' }),
        response: { 200: listResponseSchema(robotSchema), ...errorResponses },
      },
    },
    async (request) => robots.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['ROBOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One robot',
        body: idBodySchema,
        response: { 200: dataResponseSchema(robotSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await robots.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['ROBOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Create a robot',
        body: robotCreateSchema,
        response: { 201: createdResponseSchema(robotSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await robots.create(scopeOf(request), request.body);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a robot',
        body: robotUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await robots.update(scopeOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['ROBOS.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete a robot with its versions, fields and tasks',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await robots.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
};
