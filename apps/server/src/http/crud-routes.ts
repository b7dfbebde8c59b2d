import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  translateMessage,
  type ListResponse,
  type PermissionArea,
} from '@rota/contract';
import type { TenantScope } from '../lib/tenant-scope.js';
import type { AuditAuthor } from '../modules/audit/service.js';
import { authorOf, scopeOf } from './auth.js';
import { bearerSecurity, errorResponses } from './responses.js';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What a tenant-owned resource's service offers the five generic calls. */
export interface CrudService<Item, Query, Update> {
  list(scope: TenantScope, query: Query): Promise<ListResponse<Item>>;
  show(scope: TenantScope, id: number): Promise<Item>;
  /** Writes its audit record in the change's transaction. */
  update(scope: TenantScope, input: Update, author: AuditAuthor): Promise<void>;
  remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void>;
}

export interface CrudRoutes<
  I extends z.ZodType,
  Q extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
> {
  /** The permission area: its LIST guards index and show, CREATE, UPDATE and DELETE the others. */
  area: PermissionArea;
  tag: string;
  item: I;
  listQuery: Q;
  /** Leave out when creating is not a JSON call (robot versions upload a file). */
  create?: {
    body: C;
    /** The created answer's `data`, when it differs from the item (an agent with its token). */
    answer?: z.ZodType;
    summary: string;
    /** `request` for what the scope does not say (who is creating). */
    run: (
      scope: TenantScope,
      input: z.output<C>,
      author: AuditAuthor,
      request: FastifyRequest,
    ) => Promise<unknown>;
  };
  update: U;
  service: CrudService<z.infer<I>, z.output<Q>, z.output<U>>;
  /** What the resource is, for the OpenAPI summaries ("VM", "robot field"). */
  noun: string;
  /** Summaries that say more than "List VMs" where the call has rules worth reading. */
  summaries?: Partial<Record<'index' | 'show' | 'update' | 'delete', string>>;
}

/**
 * The five calls of every tenant-owned resource: `index`, `show`, `create`, `update`,
 * `delete`, each authenticated, validated by the contract's schema, authorized by its
 * permission and scoped to the selected client. Resource-specific calls are added beside it.
 */
export function registerCrudRoutes<
  I extends z.ZodType,
  Q extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
>(app: ZodApp, options: CrudRoutes<I, Q, C, U>) {
  const { area, tag, item, service, noun, summaries = {} } = options;
  const tags = [tag];
  const security = bearerSecurity;
  // Typed loosely on purpose: the item schema is generic here, and each service's own types
  // already tie its answers to the contract; the serializer still checks every answer.
  const showAnswer: z.ZodType = dataResponseSchema(item);

  app.post(
    '/index',
    {
      config: { permissions: [`${area}.LIST`] },
      schema: {
        tags,
        security,
        summary: summaries.index ?? `List ${noun}s`,
        body: options.listQuery,
        response: { 200: listResponseSchema(item), ...errorResponses },
      },
    },
    async (request) => service.list(scopeOf(request), request.body as z.output<Q>),
  );

  app.post(
    '/show',
    {
      config: { permissions: [`${area}.LIST`] },
      schema: {
        tags,
        security,
        summary: summaries.show ?? `One ${noun}`,
        body: idBodySchema,
        response: { 200: showAnswer, ...errorResponses },
      },
    },
    async (request) => ({ data: await service.show(scopeOf(request), request.body.id) }),
  );

  const create = options.create;
  if (create) {
    app.post(
      '/create',
      {
        config: { permissions: [`${area}.CREATE`] },
        schema: {
          tags,
          security,
          summary: create.summary,
          body: create.body,
          response: { 201: createdResponseSchema(create.answer ?? item), ...errorResponses },
        },
      },
      async (request, reply) => {
        const data = await create.run(
          scopeOf(request),
          request.body as z.output<C>,
          authorOf(request),
          request,
        );
        return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
      },
    );
  }

  app.put(
    '/update',
    {
      config: { permissions: [`${area}.UPDATE`] },
      schema: {
        tags,
        security,
        summary: summaries.update ?? `Change a ${noun}`,
        body: options.update,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.update(scopeOf(request), request.body as z.output<U>, authorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: [`${area}.DELETE`] },
      schema: {
        tags,
        security,
        summary: summaries.delete ?? `Delete a ${noun}`,
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
