import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataResponseSchema,
  idBodySchema,
  messageResponseSchema,
  runResponseSchema,
  schedulingCreateSchema,
  schedulingListQuerySchema,
  schedulingPreviewResultSchema,
  schedulingPreviewSchema,
  schedulingSchema,
  schedulingUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { RunService } from '../executions/run-service.js';
import type { SchedulingService } from './service.js';

const tags = ['schedulings'];
const security = bearerSecurity;

/** /api/rota/scheduling/api/v1, guarded by AGENDAMENTOS.* */
export const schedulingRoutes: FastifyPluginAsyncZod<{
  schedulings: SchedulingService;
  runs: RunService;
}> = async (app, { schedulings, runs }) => {
  registerCrudRoutes(app, {
    area: 'AGENDAMENTOS',
    tag: 'schedulings',
    noun: 'scheduling',
    item: schedulingSchema,
    listQuery: schedulingListQuerySchema,
    create: {
      body: schedulingCreateSchema,
      summary: 'Create a scheduling with the VMs it may run on',
      run: (scope, input, author) => schedulings.create(scope, input, author),
    },
    update: schedulingUpdateSchema,
    service: schedulings,
    summaries: {
      index: 'List schedulings; `deleted` picks live (default), deleted or all',
      show: 'One scheduling, deleted or not',
      update: 'Change a live scheduling; `vms` replaces its whole set of VMs',
      delete: 'Delete a scheduling (soft: `restore` brings it back)',
    },
  });

  app.post(
    '/preview',
    {
      config: { permissions: ['AGENDAMENTOS.LIST'] },
      schema: {
        tags,
        security,
        summary:
          'The next five runs of a scheduling as typed (fewer when there are fewer; none for `queue`)',
        body: schedulingPreviewSchema,
        response: { 200: dataResponseSchema(schedulingPreviewResultSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await schedulings.preview(scopeOf(request), request.body) }),
  );

  app.post(
    '/restore',
    {
      config: { permissions: ['AGENDAMENTOS.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Bring a deleted scheduling back',
        body: idBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await schedulings.restore(scopeOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'restored') };
    },
  );

  app.post(
    '/run',
    {
      config: { permissions: ['AGENDAMENTOS.UPDATE'] },
      schema: {
        tags: ['schedulings'],
        security: bearerSecurity,
        summary: 'Run the scheduling now, with its robot, settings and VMs',
        body: idBodySchema,
        response: { 201: runResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await runs.runScheduling(
        scopeOf(request),
        actorOf(request),
        request.body.id,
        authorOf(request),
      );
      return reply.code(201).send({
        message: translateMessage(request.lang, 'execution_queued'),
        data: { execution_id: id },
      });
    },
  );
};
