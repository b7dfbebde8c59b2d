import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  messageResponseSchema,
  translateMessage,
  triggerCreateSchema,
  triggerFireAnswerSchema,
  triggerFireSchema,
  triggerListQuerySchema,
  triggerSchema,
  triggerUpdateSchema,
  triggerWithTokenSchema,
} from '@rota/contract';
import { authorOf, bearerToken, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { AppError } from '../../lib/errors.js';
import type { FiringTrigger, TriggerService } from './service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The trigger a fire's token named (the fire route only). */
    firingTrigger: FiringTrigger | null;
  }
}

const tags = ['triggers'];
const security = bearerSecurity;

function firingOf(request: FastifyRequest): FiringTrigger {
  if (!request.firingTrigger) throw new AppError('invalid_trigger_token');
  return request.firingTrigger;
}

/**
 * /api/rota/trigger/api/v1: a robot's run triggers. Reading needs ROBOS.LIST; making,
 * renaming, rotating and revoking one ROBOS.UPDATE (a trigger is a setting of its robot, as its
 * fields are); deleting ROBOS.DELETE. `fire` takes no session: the trigger's own token.
 */
export const triggerRoutes: FastifyPluginAsyncZod<{ triggers: TriggerService }> = async (
  app,
  { triggers },
) => {
  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'triggers',
    noun: 'run trigger',
    item: triggerSchema,
    listQuery: triggerListQuerySchema,
    update: triggerUpdateSchema,
    service: triggers,
    summaries: {
      update: 'Rename a run trigger (ROBOS.UPDATE)',
      delete: 'Delete a run trigger; its token stops working',
    },
  });

  app.post(
    '/create',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Create a run trigger of a robot: answers its token, this once (ROBOS.UPDATE)',
        body: triggerCreateSchema,
        response: { 201: createdResponseSchema(triggerWithTokenSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await triggers.create(scopeOf(request), request.body, authorOf(request));
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.post(
    '/rotate',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Replace a trigger’s token (the old one stops at once); answers the new one once',
        body: idBodySchema,
        response: { 200: dataResponseSchema(triggerWithTokenSchema), ...errorResponses },
      },
    },
    async (request) => ({
      data: await triggers.rotate(scopeOf(request), request.body.id, authorOf(request)),
    }),
  );

  app.post(
    '/revoke',
    {
      config: { permissions: ['ROBOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Revoke a trigger: its token stops working (rotate gives it a new one)',
        body: idBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await triggers.revoke(scopeOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'trigger_revoked') };
    },
  );

  app.decorateRequest('firingTrigger', null);
  app.post(
    '/fire',
    {
      config: { public: true },
      // The token before the body is read: an unknown caller costs no parsing.
      onRequest: async (request) => {
        request.firingTrigger = await triggers.authenticate(bearerToken(request));
      },
      schema: {
        tags,
        security: [{ triggerToken: [] }],
        summary:
          'Fire a run trigger: create its tasks and queue one run of its robot. ' +
          '`Idempotency-Key` (1–200 visible characters) repeats the first answer for 24 hours; ' +
          '60 fires a minute per trigger (429 with Retry-After beyond)',
        body: triggerFireSchema,
        response: { 201: triggerFireAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const trigger = firingOf(request);
      const key = triggers.idempotencyKey(request.headers['idempotency-key']);
      const author = { ...authorOf(request), userName: `trigger:${trigger.name}` };
      const answer = await triggers.fire(trigger, request.body, key, author);
      return reply.status(201).send(answer);
    },
  );
};
