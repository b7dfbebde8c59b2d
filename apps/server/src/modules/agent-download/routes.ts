import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AGENT_SHA256_HEADER,
  agentDownloadIndexSchema,
  agentDownloadParamsSchema,
} from '@rota/contract';
import { contentDisposition } from '../../http/multipart-form.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AgentDownloadService } from './service.js';

const tags = ['agents'];
const security = bearerSecurity;

/** /api/rota/agent/download/api/v1: the packaged agent, for whoever may see agents. */
export const agentDownloadRoutes: FastifyPluginAsyncZod<{
  agentDownloads: AgentDownloadService;
}> = async (app, { agentDownloads }) => {
  app.get(
    '/index',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary:
          'The packaged agent: its version and, per platform, the file, its SHA-256 and size (404 agent_build_missing when none was packaged)',
        response: { 200: agentDownloadIndexSchema, ...errorResponses },
      },
    },
    async () => ({ data: await agentDownloads.index() }),
  );

  app.get(
    '/:platform',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary:
          'The agent executable for a platform, as an attachment, its SHA-256 (hex) in X-Rota-SHA256 (404 agent_build_missing when none was packaged)',
        params: agentDownloadParamsSchema,
        response: { 200: z.any().describe('The executable'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const download = await agentDownloads.open(request.params.platform);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(download.bytes))
        .header('content-disposition', contentDisposition(download.file))
        .header('x-content-type-options', 'nosniff')
        .header(AGENT_SHA256_HEADER, download.sha256)
        .header('cache-control', 'no-store')
        .send(download.stream);
    },
  );
};
