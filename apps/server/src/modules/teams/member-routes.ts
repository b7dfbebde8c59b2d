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
import { authorOf, scopeOf } from '../../http/auth.js';
import type { ZodApp } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { AuditAuthor } from '../audit/service.js';
import type { TeamRobotService, TeamUserService } from './member-service.js';

interface MemberService<Item, Query, Create> {
  list(scope: TenantScope, query: Query): Promise<ListResponse<Item>>;
  show(scope: TenantScope, id: number): Promise<Item>;
  /** Each write records itself in the audit log, in its transaction. */
  create(scope: TenantScope, input: Create, author: AuditAuthor): Promise<Item>;
  remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void>;
}

/**
 * index, show, create and delete of one kind of team member (a link has nothing to update),
 * guarded by USUARIOS.* like the teams, each write in the audit log.
 */
function registerMemberRoutes<I extends z.ZodType, Q extends z.ZodType, C extends z.ZodType>(
  app: ZodApp,
  options: {
    noun: string;
    item: I;
    listQuery: Q;
    create: C;
    service: MemberService<z.infer<I>, z.output<Q>, z.output<C>>;
  },
) {
  const { noun, service } = options;
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
      const data = await service.create(
        scopeOf(request),
        request.body as z.output<C>,
        authorOf(request),
      );
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
      await service.remove(scopeOf(request), request.body.id, authorOf(request));
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );
}

/** /api/teams/robots/api/v1 */
export const teamRobotRoutes: FastifyPluginAsyncZod<{ teamRobots: TeamRobotService }> = async (
  app,
  { teamRobots },
) => {
  registerMemberRoutes(app, {
    noun: 'robot',
    item: teamRobotSchema,
    listQuery: teamRobotListQuerySchema,
    create: teamRobotCreateSchema,
    service: teamRobots,
  });
};

/** /api/teams/users/api/v1 */
export const teamUserRoutes: FastifyPluginAsyncZod<{ teamUsers: TeamUserService }> = async (
  app,
  { teamUsers },
) => {
  registerMemberRoutes(app, {
    noun: 'user',
    item: teamUserSchema,
    listQuery: teamUserListQuerySchema,
    create: teamUserCreateSchema,
    service: teamUsers,
  });
};
