import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  robotRunSchema,
  runResponseSchema,
  translateMessage,
  robotCreateSchema,
  robotListQuerySchema,
  robotSchema,
  robotUpdateSchema,
} from '@rota/contract';
import { actorOf, authorOf, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { RunService } from '../executions/run-service.js';
import type { RobotService } from './service.js';

/** /api/rota/robot/api/v1, guarded by ROBOS.* */
export const robotRoutes: FastifyPluginAsyncZod<{
  robots: RobotService;
  runs: RunService;
}> = async (app, { robots, runs }) => {
  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'robots',
    noun: 'robot',
    item: robotSchema,
    listQuery: robotListQuerySchema,
    create: {
      body: robotCreateSchema,
      summary: 'Create a robot',
      run: (scope, input, author) => robots.create(scope, input, author),
    },
    update: robotUpdateSchema,
    service: robots,
    summaries: {
      delete: 'Delete a robot with its versions, fields and tasks',
    },
  });

  app.post(
    '/run',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags: ['robots'],
        security: bearerSecurity,
        summary: 'Run the robot now (queues an execution)',
        body: robotRunSchema,
        response: { 201: runResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await runs.runRobot(
        scopeOf(request),
        actorOf(request),
        request.body,
        authorOf(request),
      );
      return reply.code(201).send({
        message: translateMessage(request.lang, 'execution_queued'),
        data: { execution_id: id },
      });
    },
  );
};
