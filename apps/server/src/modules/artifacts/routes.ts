import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ARTIFACT_MAX_BYTES,
  artifactDownloadQuerySchema,
  artifactListResponseSchema,
  artifactSchema,
  createdResponseSchema,
  idBodySchema,
  isInlineArtifactType,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { bearerToken, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { contentDisposition, readMultipartForm } from '../../http/multipart-form.js';
import { AppError } from '../../lib/errors.js';
import type { RunApiService } from '../run-api/run-api-service.js';
import { ARTIFACT_FILE_PART, type ArtifactService } from './service.js';

function readArtifactForm(request: FastifyRequest, artifacts: ArtifactService) {
  return readMultipartForm(request, {
    fileField: ARTIFACT_FILE_PART,
    maxBytes: artifacts.maxBytes,
    tooLarge: 'artifact_too_large',
    receive: (part) => artifacts.receive(part.file, part.filename, part.mimetype),
    discard: (incoming) => artifacts.discard(incoming),
  });
}

/** /api/rota/run/api/v1/artifact: a running robot's uploads, with its ROTA_EXECUTION_TOKEN. */
export const artifactRunRoutes: FastifyPluginAsyncZod<{
  artifacts: ArtifactService;
  runApi: RunApiService;
}> = async (app, { artifacts, runApi }) => {
  await app.register(multipart, {
    limits: { fileSize: ARTIFACT_MAX_BYTES + 1, files: 1, fields: 4, parts: 6 },
  });

  app.post(
    '/upload',
    {
      config: { public: true },
      schema: {
        tags: ['robot API'],
        security: [{ runToken: [] }],
        summary: 'Keep a file as evidence of this run (multipart/form-data)',
        description: `Part \`${ARTIFACT_FILE_PART}\`: the file, at most ${ARTIFACT_MAX_BYTES / 1024 / 1024} MB, its content type the artifact's media type; text part \`name\` (optional, defaults to the file name). At most 100 per execution, only while the run is processing.`,
        consumes: ['multipart/form-data'],
        response: { 201: createdResponseSchema(artifactSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      if (!token) throw new AppError('unauthorized');
      await runApi.authenticate(token);
      const { fields, received: incoming } = await readArtifactForm(request, artifacts);
      let run;
      try {
        // The run may have ended while the body streamed in: ask again before keeping it.
        run = await runApi.authenticate(token);
      } catch (error) {
        await artifacts.discard(incoming);
        throw error;
      }
      const data = await artifacts.create(run, fields, incoming);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );
};

/** /api/rota/activity/api/v1/artifact: guarded like the execution's logs (HISTORIC.LIST). */
export const artifactActivityRoutes: FastifyPluginAsyncZod<{ artifacts: ArtifactService }> = async (
  app,
  { artifacts },
) => {
  const tags = ['activity'];
  const security = bearerSecurity;

  app.post(
    '/index',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary: "An execution's artifacts (oldest first)",
        body: idBodySchema,
        response: { 200: artifactListResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await artifacts.list(scopeOf(request), request.body.id) }),
  );

  app.get(
    '/download',
    {
      config: { permissions: ['HISTORIC.LIST'] },
      schema: {
        tags,
        security,
        summary:
          'One artifact, as an attachment (`inline=1`: inline, for PNG, JPEG, GIF, WebP only)',
        querystring: artifactDownloadQuerySchema,
        response: { 200: z.any().describe('The artifact bytes'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { artifact, blob } = await artifacts.open(scopeOf(request), request.query.id);
      // HTML, SVG and everything else is only ever an attachment of an opaque type.
      const inline = request.query.inline === '1' && isInlineArtifactType(artifact.media_type);
      return reply
        .header('content-type', inline ? artifact.media_type : 'application/octet-stream')
        .header('content-length', String(blob.size))
        .header(
          'content-disposition',
          contentDisposition(artifact.name, inline ? 'inline' : 'attachment'),
        )
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('x-content-sha256', artifact.sha256)
        .send(blob.stream);
    },
  );
};
