import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  messageResponseSchema,
  robotEnvironmentListResponseSchema,
  robotParameterListResponseSchema,
  robotProgressSchema,
  robotStatusResponseSchema,
  robotTaskFinishSchema,
  robotTaskNextResponseSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { bearerToken } from '../../http/auth.js';
import { errorResponses } from '../../http/responses.js';
import type { RunApiService } from './run-api-service.js';
import { AppError } from '../../lib/errors.js';
import type { RunIdentity } from './run-api-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    run: RunIdentity | null;
  }
}

const tags = ['robot API'];
const security = [{ runToken: [] }];
const config = { public: true } as const;

function runOf(request: FastifyRequest): RunIdentity {
  if (!request.run) throw new AppError('unauthorized');
  return request.run;
}

/** /api/rota/run/api/v1: called by a running robot with its ROTA_EXECUTION_TOKEN. */
export const runApiRoutes: FastifyPluginAsyncZod<{ runApi: RunApiService }> = async (
  app,
  { runApi },
) => {
  app.decorateRequest('run', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new AppError('unauthorized');
    request.run = await runApi.authenticate(token);
  });

  app.post(
    '/task/next',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Take the robot's next pending task (null when none is left)",
        body: z.object({}).optional(),
        response: { 200: robotTaskNextResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await runApi.nextTask(runOf(request)) }),
  );

  app.post(
    '/task/finish',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Finish a task this run holds: success, business error or application error',
        body: robotTaskFinishSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await runApi.finishTask(runOf(request), request.body);
      return { message: translateMessage(request.lang, 'task_finished') };
    },
  );

  app.post(
    '/status',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Whether the console asked this run to stop (a robot may end cleanly on it)',
        body: z.object({}).optional(),
        response: { 200: robotStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await runApi.statusOf(runOf(request)) }),
  );

  app.post(
    '/environment/index',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The client's environments, secrets opened, for this run only",
        body: z.object({}).optional(),
        response: { 200: robotEnvironmentListResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await runApi.environmentsOf(runOf(request)) }),
  );

  app.post(
    '/parameter/index',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The client's parameters, passwords opened, for this run only",
        body: z.object({}).optional(),
        response: { 200: robotParameterListResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await runApi.parametersOf(runOf(request)) }),
  );

  app.post(
    '/progress',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Say how far the run got (percent, message); counts as activity (stalls)',
        body: robotProgressSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await runApi.progress(runOf(request), request.body);
      return { message: translateMessage(request.lang, 'progress_recorded') };
    },
  );
};
