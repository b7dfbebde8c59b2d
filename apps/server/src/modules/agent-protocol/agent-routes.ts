import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentClaimBatchResponseSchema,
  agentClaimBatchSchema,
  agentClaimResponseSchema,
  agentClaimSchema,
  type ClaimedRun,
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
  AGENT_SHA256_HEADER,
  agentUpdateParamsSchema,
  AGENT_STREAM_PATH,
  agentAttendedRunSchema,
  runResponseSchema,
  translateMessage,
} from '@rota/contract';
import { bearerToken } from '../../http/auth.js';
import { errorResponses } from '../../http/responses.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { AgentDownloadService } from '../agent-download/service.js';
import type { AttendedRunService } from '../attended/service.js';
import { agentOperations } from './agent-operations.js';
import { AgentStreamServer } from './agent-stream.js';
import type { AgentIdentity, DispatchService } from '../dispatch/dispatch-service.js';

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
  /** The packaged agent, for updates; absent: no update is served. */
  agentDownloads?: AgentDownloadService;
  attended: AttendedRunService;
}> = async (app, { dispatch, blobs, agentDownloads, attended }) => {
  // The same calls as messages on one WebSocket per agent (AGENT_STREAM_PATH).
  const stream = new AgentStreamServer({
    dispatch,
    log: app.log,
    onAnswer: (op, status, seconds) =>
      app.metrics.httpResponse('WS', `${AGENT_STREAM_PATH}/${op}`, status, seconds),
  });
  app.server.on('upgrade', stream.upgrade);
  app.addHook('preClose', async () => {
    // Held claims end ("no work") so their answers go out before the streams close.
    dispatch.waiters.closeAll();
    await stream.close();
  });
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
        description:
          'With `stream: true` in the answer, `GET stream` with the same `Authorization` upgrades ' +
          'to a WebSocket that carries `heartbeat`, `claim`, `claim-batch` and `finish` as JSON ' +
          'text messages `{ id, op, body }`, each answered `{ id, status, body }` as over HTTP.',
        body: agentHelloSchema,
        response: { 200: agentHelloResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await dispatch.hello(agentOf(request), request.body) }),
  );

  app.post(
    '/run',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          "An attended agent's user starts a robot on it (`rota-agent run ROBOT`): an attended run only this agent takes",
        description:
          'The robot by name (any case) or id; `task_data` becomes a task only this run takes. ' +
          'Refused (409 agent_not_attended) for an unattended agent, 403 when its user may not run ' +
          'robots in its client any more.',
        body: agentAttendedRunSchema,
        response: { 201: runResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await attended.runFromAgent(agentOf(request), request.body, {
        ip: request.ip,
        requestId: request.id,
      });
      return reply.code(201).send({
        message: translateMessage(request.lang, 'execution_queued'),
        data: { execution_id: id },
      });
    },
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
    async (request, reply) =>
      agentOperations.heartbeat.answer(callOf(request, reply, dispatch), request.body),
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
    async (request, reply) =>
      agentOperations.claim.answer(callOf(request, reply, dispatch), request.body),
  );

  app.post(
    '/claim-batch',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Wait (long poll) for work, then take up to `max` executions this agent may run',
        body: agentClaimBatchSchema,
        response: { 200: agentClaimBatchResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      agentOperations['claim-batch'].answer(callOf(request, reply, dispatch), request.body),
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
    async (request, reply) =>
      agentOperations.finish.answer(callOf(request, reply, dispatch), request.body),
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

  app.get(
    '/update/:platform',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'The agent executable this server ships for a platform, its SHA-256 (hex) in X-Rota-SHA256: what an update offer names',
        operationId: 'agentProtocolDownloadUpdate',
        params: agentUpdateParamsSchema,
        response: { 200: z.any().describe('The executable'), ...errorResponses },
      },
    },
    async (request, reply) => {
      agentOf(request);
      if (!agentDownloads) throw notFound();
      const download = await agentDownloads.open(request.params.platform);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(download.bytes))
        .header(AGENT_SHA256_HEADER, download.sha256)
        .header('cache-control', 'no-store')
        .send(download.stream);
    },
  );
};

/** An HTTP call's agent, and the delivery of the runs it may claim to its answer. */
function callOf(request: FastifyRequest, reply: FastifyReply, dispatch: DispatchService) {
  return {
    dispatch,
    agent: agentOf(request),
    deliver: (take: (hangUp: AbortSignal) => Promise<ClaimedRun[]>) =>
      claimDelivered(request, reply, dispatch, take),
  };
}

/**
 * Claims with `take` and hands the runs to the answer, unless the agent hung up: runs nobody is
 * there to receive go back to the queue at once (all of them), not after a lease.
 */
async function claimDelivered(
  request: FastifyRequest,
  reply: FastifyReply,
  dispatch: DispatchService,
  take: (hangUp: AbortSignal) => Promise<ClaimedRun[]>,
): Promise<ClaimedRun[]> {
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
  const runs = await take(hangUp.signal);
  reply.raw.off('close', onClose);
  const giveBack = () => dispatch.giveBackAll(agent, runs);
  if (runs.length > 0 && (hangUp.signal.aborted || request.raw.socket?.destroyed)) {
    // Nobody is there to run them: back to the queue at once, not after a lease.
    await giveBack();
    return [];
  }
  if (runs.length > 0) {
    // The connection died while the answer was being written: give them back too.
    reply.raw.once('close', () => {
      if (delivered) return;
      giveBack().catch((error: unknown) =>
        request.log.error({ err: error }, 'could not give back an undelivered claim'),
      );
    });
  }
  return runs;
}
