import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  teamRobotCreateSchema,
  teamRobotListQuerySchema,
  teamRobotSchema,
  teamUserCreateSchema,
  teamUserListQuerySchema,
  teamUserSchema,
  translateMessage,
  type ListResponse,
} from '@rota/contract';
import { scopeOf } from '../../http/auth.js';
import type { ZodApp } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

interface MemberService<Item, Query, Create> {
  list(scope: TenantScope, query: Query): Promise<ListResponse<Item>>;
  show(scope: TenantScope, id: number): Promise<Item>;
  create(scope: TenantScope, input: Create): Promise<Item>;
  remove(scope: TenantScope, id: number): Promise<void>;
}

/**
 * index, show, create and delete of one kind of team member (a link has nothing to update),
 * guarded by USUARIOS.* like the teams, each write in the audit log.
 */
function registerMemberRoutes<I extends z.ZodType, Q extends z.ZodType, C extends z.ZodType>(
  app: ZodApp,
  options: {
    noun: string;
    entity: string;
    idKey: string;
    item: I;
    listQuery: Q;
    create: C;
    service: MemberService<z.infer<I>, z.output<Q>, z.output<C>>;
    services: Services;
  },
) {
  const { noun, entity, idKey, service, services } = options;
  const tags = ['teams'];
  const security = bearerSecurity;
  const show: z.ZodType = dataResponseSchema(options.item);
  const created: z.ZodType = createdResponseSchema(options.item);

  app.post(
    '/index',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: `List the ${noun}s of a team (\`teams_id\`), or of every team`,
        body: options.listQuery,
        response: { 200: listResponseSchema(options.item), ...errorResponses },
      },
    },
    async (request) => service.list(scopeOf(request), request.body as z.output<Q>),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: `One ${noun} of a team`,
        body: idBodySchema,
        response: { 200: show, ...errorResponses },
      },
    },
    async (request) => ({ data: await service.show(scopeOf(request), request.body.id) }),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['USUARIOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: `Add a ${noun} to a team`,
        body: options.create,
        response: { 201: created, ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await service.create(scopeOf(request), request.body as z.output<C>);
      await services.audit.record(request, {
        action: 'create',
        entity,
        entity_id: (data as Record<string, unknown>)[idKey] as number,
        after: data,
      });
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['USUARIOS.DELETE'] },
      schema: {
        tags,
        security,
        summary: `Take a ${noun} out of its team (by the link's id)`,
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const before = await service.show(scope, request.body.id).catch(() => null);
      await service.remove(scope, request.body.id);
      await services.audit.record(request, {
        action: 'delete',
        entity,
        entity_id: request.body.id,
        before,
      });
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
}

/** /api/teams/robots/api/v1 */
export const teamRobotRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  registerMemberRoutes(app, {
    noun: 'robot',
    entity: 'team_robot',
    idKey: 'team_robots_id',
    item: teamRobotSchema,
    listQuery: teamRobotListQuerySchema,
    create: teamRobotCreateSchema,
    service: services.teamRobots,
    services,
  });
};

/** /api/teams/users/api/v1 */
export const teamUserRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  registerMemberRoutes(app, {
    noun: 'user',
    entity: 'team_user',
    idKey: 'team_users_id',
    item: teamUserSchema,
    listQuery: teamUserListQuerySchema,
    create: teamUserCreateSchema,
    service: services.teamUsers,
    services,
  });
};
