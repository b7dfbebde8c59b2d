import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idBodySchema,
  idsBodySchema,
  taskBulkResponseSchema,
  taskCreateSchema,
  taskHistoryResponseSchema,
  taskListQuerySchema,
  taskSchema,
  taskUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { TaskService } from './service.js';

const tags = ['tasks'];
const security = bearerSecurity;

/** /api/rota/task/api/v1, guarded by ATIVIDADES.* */
export const taskRoutes: FastifyPluginAsyncZod<{ tasks: TaskService }> = async (app, { tasks }) => {
  registerCrudRoutes(app, {
    area: 'ATIVIDADES',
    tag: 'tasks',
    noun: 'task',
    item: taskSchema,
    listQuery: taskListQuerySchema,
    create: {
      body: taskCreateSchema,
      summary: 'Queue a task for a robot; `data` follows the robot’s fields',
      run: (scope, input, author) => tasks.create(scope, input, author),
    },
    update: taskUpdateSchema,
    service: tasks,
    summaries: {
      index: 'List tasks, newest first',
      update: 'Change a task’s label, data, priority or expiration date',
    },
  });

  app.post(
    '/history',
    {
      config: { permissions: ['ATIVIDADES.LIST'] },
      schema: {
        tags,
        security,
        summary:
          'A task’s status and holder changes, oldest first, with the executions that held it',
        body: idBodySchema,
        response: { 200: taskHistoryResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await tasks.history(scopeOf(request), request.body.id) }),
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
    async (request) => {
      const count = await tasks.retry(scopeOf(request), request.body, authorOf(request));
      return { message: translateMessage(request.lang, 'tasks_retried'), data: { count } };
    },
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
      const count = await tasks.removeMany(scopeOf(request), request.body, authorOf(request));
      return reply
        .status(202)
        .send({ message: translateMessage(request.lang, 'tasks_removed'), data: { count } });
    },
  );
};
