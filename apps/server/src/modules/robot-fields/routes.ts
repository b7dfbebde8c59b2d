import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  robotFieldCreateSchema,
  robotFieldListQuerySchema,
  robotFieldSchema,
  robotFieldUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['robot fields'];
const security = bearerSecurity;

/** /api/rota/robot/field/api/v1 (DESIGN §4), guarded by ROBOS.* */
export const robotFieldRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { robotFields: fields } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['ROBOS.LIST'] },
      schema: {
        tags,
        security,
        summary: "List robot fields (a robot's, with rota_robots_id)",
        body: robotFieldListQuerySchema.default({
          page: 1,
          per_page: 20,
          order: 'asc',
          sort: 'name',
        }),
        response: { 200: listResponseSchema(robotFieldSchema), ...errorResponses },
      },
    },
    async (request) => fields.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['ROBOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One robot field',
        body: idBodySchema,
        response: { 200: dataResponseSchema(robotFieldSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await fields.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['ROBOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: "Add an input to a robot's tasks",
        body: robotFieldCreateSchema,
        response: { 201: createdResponseSchema(robotFieldSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await fields.create(scopeOf(request), request.body);
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
        summary: 'Change a robot field',
        body: robotFieldUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await fields.update(scopeOf(request), request.body);
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
        summary: 'Delete a robot field',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await fields.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
};
