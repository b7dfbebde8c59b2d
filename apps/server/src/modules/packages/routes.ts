import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ROBOT_PACKAGE_MAX_BYTES,
  createdResponseSchema,
  listResponseSchema,
  packageCreateSchema,
  packageListQuerySchema,
  packageSchema,
  packageUpdateRobotsResponseSchema,
  packageUpdateRobotsSchema,
  packageUpdateSchema,
  packageVersionListQuerySchema,
  packageVersionSchema,
  robotPackageSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { authorOf, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { RobotVersionService } from '../robot-versions/service.js';
import { FILE_PART, readPackageForm } from '../robot-versions/upload.js';
import type { PackageService } from './service.js';

const tags = ['packages'];
const security = bearerSecurity;

/** /api/rota/package/api/v1, guarded by ROBOS.*: the client's package feed. */
export const packageRoutes: FastifyPluginAsyncZod<{
  packages: PackageService;
  versions: RobotVersionService;
}> = async (app, { packages, versions }) => {
  // Only the version upload is multipart; see the robot versions' routes for the limits.
  await app.register(multipart, {
    limits: { fileSize: ROBOT_PACKAGE_MAX_BYTES + 1, files: 1, fields: 10, parts: 12 },
  });

  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'packages',
    noun: 'package',
    item: packageSchema,
    listQuery: packageListQuerySchema,
    update: packageUpdateSchema,
    service: packages,
    create: {
      body: packageCreateSchema,
      summary: 'Create a package in the feed',
      run: (scope, input, author) => packages.create(scope, input, author),
    },
    summaries: {
      delete: 'Delete a package with its versions; refused while robots run it',
    },
  });

  app.post(
    '/version/index',
    {
      config: { permissions: ['ROBOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List a package’s versions',
        body: packageVersionListQuerySchema,
        response: { 200: listResponseSchema(packageVersionSchema), ...errorResponses },
      },
    },
    (request) => versions.listInPackage(scopeOf(request), request.body),
  );

  app.post(
    '/version/create',
    {
      config: { permissions: ['ROBOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Upload a version to a package (multipart/form-data)',
        description: `Text parts \`rota_packages_id\`, \`version\`, \`notes\`; part \`${FILE_PART}\`: the package, .zip or .tar.gz (.tgz), at most ${ROBOT_PACKAGE_MAX_BYTES / 1024 / 1024} MB.`,
        consumes: ['multipart/form-data'],
        response: { 201: createdResponseSchema(packageVersionSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { fields, incoming } = await readPackageForm(request, versions);
      const scope = scopeOf(request);
      const data = await versions.createInPackage(scope, authorOf(request), fields, incoming);
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/robot',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Point a robot at a package: one version, or null to follow the newest',
        body: robotPackageSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await versions.pointRobot(scopeOf(request), request.body, authorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/update-robots',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Move these robots to the package’s newest approved version',
        body: packageUpdateRobotsSchema,
        response: { 200: packageUpdateRobotsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const result = await versions.updateRobots(scopeOf(request), request.body, authorOf(request));
      const message = translateMessage(request.lang, 'robots_updated', {
        count: String(result.updated),
      });
      return { message, ...result };
    },
  );
};
