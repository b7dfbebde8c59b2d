import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityExportQuerySchema,
  activityListQuerySchema,
  dataResponseSchema,
  executionDetailSchema,
  executionLogDownloadQuerySchema,
  executionLogQuerySchema,
  executionLogResponseSchema,
  executionSchema,
  executionStopSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  translateMessage,
} from '@rota/contract';
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { ActivityService } from './activity-service.js';

const tags = ['activity'];
const security = bearerSecurity;

/** /api/rota/activity/api/v1: the activity history, guarded by HISTORIC.*. */
export const activityRoutes: FastifyPluginAsyncZod<{ activity: ActivityService }> = async (
  app,
  { activity },
) => {
  app.post(
    '/index',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List executions (newest first), filtered by range, status, robot, agent',
        body: activityListQuerySchema,
        response: { 200: listResponseSchema(executionSchema), ...errorResponses },
      },
    },
    async (request) => activity.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One execution with its attempts',
        body: idBodySchema,
        response: { 200: dataResponseSchema(executionDetailSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await activity.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/logs',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary: "An execution's log lines after a seq (the tail on first load)",
        body: executionLogQuerySchema,
        response: { 200: executionLogResponseSchema, ...errorResponses },
      },
    },
    async (request) => activity.logs(scopeOf(request), request.body),
  );

  app.get(
    '/logs/download',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary: "An execution's whole log as a text file (`<time> <stream> <line>`)",
        querystring: executionLogDownloadQuerySchema,
        response: { 200: z.any().describe('text/plain'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.query;
      const text = await activity.logText(scopeOf(request), id, (error) =>
        request.log.error({ err: error }, 'the log download stopped early'),
      );
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="execution-${id}.log"`)
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(text));
    },
  );

  app.post(
    '/cancel',
    {
      config: { permissions: ['HISTORIC.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Cancel a queued execution, or stop a running one',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const outcome = await activity.cancel(scopeOf(request), request.body.id, authorOf(request));
      return reply.code(202).send({
        message: translateMessage(
          request.lang,
          outcome === 'cancelled' ? 'execution_cancelled' : 'execution_cancel_requested',
        ),
      });
    },
  );

  app.post(
    '/stop',
    {
      config: { permissions: ['HISTORIC.UPDATE'] },
      schema: {
        tags,
        security,
        summary:
          'Stop gracefully: a queued execution is cancelled, a running robot gets SIGTERM and grace_seconds before its tree is killed',
        body: executionStopSchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id, grace_seconds } = request.body;
      const outcome = await activity.stop(scopeOf(request), id, grace_seconds, authorOf(request));
      return reply.code(202).send({
        message: translateMessage(
          request.lang,
          outcome === 'cancelled' ? 'execution_cancelled' : 'execution_stop_requested',
        ),
      });
    },
  );

  app.post(
    '/fail',
    {
      config: { permissions: ['HISTORIC.UPDATE'] },
      schema: {
        tags,
        security,
        summary:
          'Mark a running execution whose agent is gone as failed now (application_error "ended by <user>"); its agent is fenced',
        body: idBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await activity.markFailed(scopeOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'execution_marked_failed') };
    },
  );

  app.post(
    '/export',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary: 'The filtered range as CSV',
        body: activityExportQuerySchema,
        response: { 200: z.any().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { startDate, endDate } = request.body;
      // The range is checked and the first page read before the first byte goes out, so what
      // fails there is still a proper error answer; a later failure ends the file with a line.
      const lines = await activity.exportCsv(
        scopeOf(request),
        request.body,
        (error) => request.log.error({ err: error }, 'the CSV export stopped early'),
        request.lang,
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="activity-${startDate}-${endDate}.csv"`,
        )
        .send(Readable.from(lines));
    },
  );
};
