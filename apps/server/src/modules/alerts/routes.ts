import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alertCreateSchema,
  alertDeliveryListQuerySchema,
  alertDeliverySchema,
  alertFeedQuerySchema,
  alertFeedSchema,
  alertFeedSeenSchema,
  alertListQuerySchema,
  alertSchema,
  alertUpdateSchema,
  idBodySchema,
  listResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AlertService } from './service.js';

const tags = ['alerts'];
const security = bearerSecurity;

/** /api/rota/alert/api/v1: alert rules, guarded by USUARIOS.*, and "send test". */
export const alertRoutes: FastifyPluginAsyncZod<{ alerts: AlertService }> = async (
  app,
  { alerts },
) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'alerts',
    noun: 'alert rule',
    item: alertSchema,
    listQuery: alertListQuerySchema,
    create: {
      body: alertCreateSchema,
      summary:
        'Create an alert rule: events of the client (of some robots) to an email, webhook, Slack or Teams channel',
      run: (scope, input, author, request) => alerts.create(scope, input, author, request.lang),
    },
    update: alertUpdateSchema,
    service: alerts,
    summaries: {
      update:
        'Change an alert rule; a webhook secret or chat URL left out is kept while the channel type stays',
    },
  });

  app.post(
    '/test',
    {
      config: { permissions: ['USUARIOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary:
          'Send a test message through the rule\u2019s channel now, once (answered after that attempt; never retried): `status` delivered or failed, `response_code` only when the receiver answered, `last_error` only "not_delivered" or "destination_not_allowed" (the transport\u2019s detail goes to the server log). 5 a minute per user, 20 per client (429).',
        body: idBodySchema,
        response: {
          200: z.object({ message: z.string(), data: alertDeliverySchema }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      message: translateMessage(request.lang, 'alert_test_sent'),
      data: await alerts.sendTest(
        scopeOf(request),
        actorOf(request).user.users_id,
        request.body.id,
      ),
    }),
  );
};

/** /api/rota/alert/delivery/api/v1: a rule's delivery log. */
export const alertDeliveryRoutes: FastifyPluginAsyncZod<{ alerts: AlertService }> = async (
  app,
  { alerts },
) => {
  app.post(
    '/index',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'The deliveries of one alert rule, newest first: status, attempts, next try',
        body: alertDeliveryListQuerySchema,
        response: { 200: listResponseSchema(alertDeliverySchema), ...errorResponses },
      },
    },
    async (request) => alerts.deliveries(scopeOf(request), request.body),
  );
};

/** /api/rota/alert/feed/api/v1: the header's bell, for any signed-in user of the client. */
export const alertFeedRoutes: FastifyPluginAsyncZod<{ alerts: AlertService }> = async (
  app,
  { alerts },
) => {
  app.post(
    '/index',
    {
      schema: {
        tags,
        security,
        summary:
          'The latest alert events of the selected client the user may see, and unread count',
        body: alertFeedQuerySchema,
        response: { 200: alertFeedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return alerts.feed(
        scopeOf(request),
        actor.user.users_id,
        actor.permissions,
        request.body.limit,
      );
    },
  );

  app.post(
    '/seen',
    {
      schema: {
        tags,
        security,
        summary: 'Mark the bell read up to an event (never moves back)',
        body: alertFeedSeenSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await alerts.seen(scopeOf(request), actorOf(request).user.users_id, request.body.up_to);
      return reply.status(204).send(null);
    },
  );
};
