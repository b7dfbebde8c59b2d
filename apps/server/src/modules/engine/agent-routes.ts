import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentClaimResponseSchema,
  agentClaimSchema,
  agentFinishResponseSchema,
  agentFinishSchema,
  agentGoodbyeResponseSchema,
  agentGoodbyeSchema,
  agentHeartbeatResponseSchema,
  agentHeartbeatSchema,
  agentHelloResponseSchema,
  agentHelloSchema,
  agentLogBatchSchema,
  agentLogResponseSchema,
} from '@rota/contract';
import { bearerToken } from '../../http/auth.js';
import { errorResponses } from '../../http/responses.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { AgentIdentity, DispatchService } from './dispatch-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    agent: AgentIdentity | null;
  }
}

const tags = ['agent protocol'];
const security = [{ agentToken: [] }];
// Not a user session: the agent's own token (checked by the hook below).
const config = { public: true } as const;

function agentOf(request: FastifyRequest): AgentIdentity {
  if (!request.agent) throw new AppError('unauthorized');
  return request.agent;
}

/**
 * What a retired token may still call: everything about the runs its agent already holds,
 * never `hello` or `claim` (a new claim with it is refused as with any unknown token).
 */
const RETIRED_TOKEN_MAY = ['/heartbeat', '/goodbye', '/logs', '/finish', '/package/:sha256'];

/** /api/rota/agent/api/v1: what `apps/agent` speaks, authenticated by the agent token. */
export const agentProtocolRoutes: FastifyPluginAsyncZod<{
  dispatch: DispatchService;
  blobs: BlobStore;
}> = async (app, { dispatch, blobs }) => {
  app.decorateRequest('agent', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new AppError('unauthorized');
    request.agent = await dispatch.authenticate(token);
    // A retired token ("Generate new token") only finishes what its agent already holds.
    const route = request.routeOptions.url ?? '';
    if (request.agent.retired && !RETIRED_TOKEN_MAY.some((path) => route.endsWith(path)))
      throw new AppError('unauthorized');
  });

  app.post(
    '/hello',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Say who the agent is (at start and after reconnecting)',
        body: agentHelloSchema,
        response: { 200: agentHelloResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await dispatch.hello(agentOf(request), request.body) }),
  );

  app.post(
    '/heartbeat',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Keep the agent active and renew the leases of its runs',
        body: agentHeartbeatSchema,
        response: { 200: agentHeartbeatResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: await dispatch.heartbeat(agentOf(request), request.body),
    }),
  );

  app.post(
    '/claim',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Wait (long poll) for the next execution this agent may run',
        body: agentClaimSchema,
        response: { 200: agentClaimResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const agent = agentOf(request);
      // The request's own 'close' has fired by now (its body was read); the response's fires
      // when the connection goes before the answer is out: that is an agent hanging up.
      const hangUp = new AbortController();
      // 'finish': the answer was handed to the operating system whole.
      let delivered = false;
      reply.raw.once('finish', () => (delivered = true));
      const onClose = () => {
        if (!delivered) hangUp.abort();
      };
      reply.raw.once('close', onClose);
      if (request.raw.socket?.destroyed) hangUp.abort();
      const run = await dispatch.claim(agent, request.body.wait_seconds, hangUp.signal);
      reply.raw.off('close', onClose);
      if (run && (hangUp.signal.aborted || request.raw.socket?.destroyed)) {
        // Nobody is there to run it: back to the queue at once, not after a lease.
        await dispatch.giveBack(agent, run);
        return { data: null };
      }
      if (run) {
        // The connection died while the answer was being written: give it back too.
        reply.raw.once('close', () => {
          if (delivered) return;
          dispatch
            .giveBack(agent, run)
            .catch((error: unknown) =>
              request.log.error({ err: error }, 'could not give back an undelivered claim'),
            );
        });
      }
      return { data: run };
    },
  );

  app.post(
    '/goodbye',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Say the agent is stopping: it shows inactive at once, what it left is settled',
        body: agentGoodbyeSchema,
        response: { 200: agentGoodbyeResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: { released: await dispatch.goodbye(agentOf(request), request.body) },
    }),
  );

  app.post(
    '/logs',
    {
      config,
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        security,
        summary: 'Store a batch of output lines; the answer says whether to stop the run',
        body: agentLogBatchSchema,
        response: { 200: agentLogResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: await dispatch.logs(agentOf(request), request.body),
    }),
  );

  app.post(
    '/finish',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Report the result of an attempt (idempotent)',
        body: agentFinishSchema,
        response: { 200: agentFinishResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: { accepted: await dispatch.finish(agentOf(request), request.body) },
    }),
  );

  app.get(
    '/package/:sha256',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Download a robot package of the agent's client by its SHA-256",
        params: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
        response: { 200: z.any().describe('The package bytes'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const agent = agentOf(request);
      if (!(await dispatch.mayDownload(agent, request.params.sha256))) throw notFound();
      // From the blob store: another instance may have received the upload.
      const file = await blobs.open('package', request.params.sha256);
      if (!file) throw notFound();
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('x-content-sha256', request.params.sha256)
        .send(file.stream);
    },
  );
};
