import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ROBOT_PACKAGE_MAX_BYTES,
  createdResponseSchema,
  idBodySchema,
  robotVersionListQuerySchema,
  robotVersionSchema,
  robotVersionUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { contentDisposition } from '../../http/multipart-form.js';
import type { RobotVersionService } from './service.js';
import { FILE_PART, readPackageForm } from './upload.js';

const tags = ['robot versions'];
const security = bearerSecurity;

const CONTENT_TYPES = { zip: 'application/zip', 'tar.gz': 'application/gzip' } as const;

/** /api/rota/robot/version/api/v1, guarded by ROBOS.* */
export const robotVersionRoutes: FastifyPluginAsyncZod<{ versions: RobotVersionService }> = async (
  app,
  { versions },
) => {
  // Only this plugin parses multipart; the rest of the API keeps its 1 MB JSON bodies. The
  // app's bodyLimit does not apply here: multipart's parser streams and is bounded by these
  // limits instead (and `create` lowers fileSize to the service's own limit).
  await app.register(multipart, {
    limits: { fileSize: ROBOT_PACKAGE_MAX_BYTES + 1, files: 1, fields: 10, parts: 12 },
  });

  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'robot versions',
    noun: 'robot version',
    item: robotVersionSchema,
    listQuery: robotVersionListQuerySchema,
    update: robotVersionUpdateSchema,
    service: versions,
    summaries: {
      update: 'Change the notes, or make the version current (rollback: an older one)',
      delete: 'Delete a version that is not current',
    },
  });

  app.post(
    '/create',
    {
      config: { permissions: ['ROBOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Upload a version (multipart/form-data)',
        description: `Text parts \`rota_robots_id\`, \`version\`, \`notes\`; part \`${FILE_PART}\`: the package, .zip or .tar.gz (.tgz), at most ${ROBOT_PACKAGE_MAX_BYTES / 1024 / 1024} MB.`,
        consumes: ['multipart/form-data'],
        response: { 201: createdResponseSchema(robotVersionSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { fields, incoming } = await readPackageForm(request, versions);
      const data = await versions.create(scopeOf(request), authorOf(request), fields, incoming);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.post(
    '/download',
    {
      config: { permissions: ['ROBOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'The package file, as uploaded',
        description: 'application/zip or application/gzip; `x-content-sha256` is its hex SHA-256.',
        body: idBodySchema,
        // A stream is sent as it is; the schema only documents the answer.
        response: { 200: z.any().describe('The package bytes'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const file = await versions.download(scopeOf(request), request.body.id);
      return reply
        .header('content-type', CONTENT_TYPES[file.format])
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(file.fileName))
        .header('x-content-sha256', file.sha256)
        .send(file.stream);
    },
  );
};
