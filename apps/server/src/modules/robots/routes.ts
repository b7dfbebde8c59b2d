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
import { actorOf, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';
import { seenWith } from './service.js';

/** /api/rota/robot/api/v1 (DESIGN §4), guarded by ROBOS.* */
export const robotRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { robots } = services;

  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'robots',
    noun: 'robot',
    item: robotSchema,
    listQuery: robotListQuerySchema,
    create: {
      body: robotCreateSchema,
      summary: 'Create a robot',
      run: async (scope, input, _author, request) => {
        const actor = actorOf(request);
        const robot = await robots.create(scope, input, actor.user.users_id);
        // It joined its creator's teams: the rest of this request sees it too (the audit).
        actor.scope = seenWith(scope, robot.rota_robots_id);
        return robot;
      },
    },
    update: robotUpdateSchema,
    service: robots,
    audit: { log: services.audit, entity: 'robot', idKey: 'rota_robots_id' },
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
      const id = await services.runs.runRobot(scopeOf(request), actorOf(request), request.body);
      await services.audit.record(request, {
        action: 'run',
        entity: 'robot',
        entity_id: request.body.id,
        after: { ...request.body, execution_id: id },
      });
      return reply.code(201).send({
        message: translateMessage(request.lang, 'execution_queued'),
        data: { execution_id: id },
      });
    },
  );
};
