import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  idsBodySchema,
  listResponseSchema,
  messageResponseSchema,
  taskBulkResponseSchema,
  taskCreateSchema,
  taskListQuerySchema,
  taskSchema,
  taskUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['tasks'];
const security = bearerSecurity;

/** /api/rota/task/api/v1 (DESIGN §4), guarded by ATIVIDADES.* */
export const taskRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { tasks } = services;

  app.post(
    '/index',
    {
      config: { permissions: ['ATIVIDADES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List tasks, newest first',
        body: taskListQuerySchema.default({
          page: 1,
          per_page: 20,
          order: 'desc',
          sort: 'created_at',
        }),
        response: { 200: listResponseSchema(taskSchema), ...errorResponses },
      },
    },
    async (request) => tasks.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['ATIVIDADES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One task',
        body: idBodySchema,
        response: { 200: dataResponseSchema(taskSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await tasks.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['ATIVIDADES.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Queue a task for a robot; `data` follows the robot’s fields',
        body: taskCreateSchema,
        response: { 201: createdResponseSchema(taskSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await tasks.create(scopeOf(request), request.body);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      config: { permissions: ['ATIVIDADES.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a task’s label, data, priority or expiration date',
        body: taskUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await tasks.update(scopeOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['ATIVIDADES.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete a task',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await tasks.remove(scopeOf(request), request.body.id);
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );

  app.post(
    '/retry',
    {
      config: { permissions: ['ATIVIDADES.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Put tasks back to pending (not those processing); `count` moved',
        body: idsBodySchema,
        response: { 200: taskBulkResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      message: translateMessage(request.lang, 'tasks_retried'),
      data: { count: await tasks.retry(scopeOf(request), request.body) },
    }),
  );

  app.post(
    '/delete_many',
    {
      config: { permissions: ['ATIVIDADES.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete tasks; `count` deleted',
        body: idsBodySchema,
        response: { 202: taskBulkResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const count = await tasks.removeMany(scopeOf(request), request.body);
      return reply
        .status(202)
        .send({ message: translateMessage(request.lang, 'tasks_removed'), data: { count } });
    },
  );
};
