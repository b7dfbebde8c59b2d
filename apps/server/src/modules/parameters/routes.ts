import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  parameterCreateSchema,
  parameterListQuerySchema,
  parameterSchema,
  parameterUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['parameters'];
const security = bearerSecurity;

/** /api/rota/parameter/api/v1 (DESIGN §4), guarded by PARAMETROS.* */
export const parameterRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { parameters } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['PARAMETROS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List parameters; passwords show only as `has_password`',
        body: parameterListQuerySchema.default({
          page: 1,
          per_page: 20,
          order: 'asc',
          sort: 'name',
        }),
        response: { 200: listResponseSchema(parameterSchema), ...errorResponses },
      },
    },
    async (request) => parameters.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['PARAMETROS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One parameter',
        body: idBodySchema,
        response: { 200: dataResponseSchema(parameterSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await parameters.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['PARAMETROS.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Create a parameter with a value or a password (sealed at rest)',
        body: parameterCreateSchema,
        response: { 201: createdResponseSchema(parameterSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await parameters.create(scopeOf(request), request.body);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      config: { permissions: ['PARAMETROS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a parameter; a value replaces a password and a password a value',
        body: parameterUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await parameters.update(scopeOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['PARAMETROS.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete a parameter',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await parameters.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
};
