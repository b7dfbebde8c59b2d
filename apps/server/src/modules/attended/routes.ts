import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  attendedRunSchema,
  myRobotsQuerySchema,
  myRobotsResponseSchema,
  runResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AttendedRunService } from './service.js';

const tags = ['attended runs'];

/** /api/rota/attended/api/v1: "My robots", run on the caller's own machines; ROBOS.UPDATE. */
export const attendedRunRoutes: FastifyPluginAsyncZod<{
  attended: AttendedRunService;
}> = async (app, { attended }) => {
  app.get(
    '/robots',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          "The caller's attended agents, and the active robots they may run on them (at most 200, by name)",
        querystring: myRobotsQuerySchema,
        response: { 200: myRobotsResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: await attended.myRobots(
        scopeOf(request),
        actorOf(request).user.users_id,
        request.query.search,
      ),
    }),
  );

  app.post(
    '/run',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          "Run a robot on one of the caller's attended agents: an attended run only that agent takes, with `task_data` as a task only that run takes",
        body: attendedRunSchema,
        response: { 201: runResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await attended.run(
        scopeOf(request),
        actorOf(request).user.users_id,
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
