import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientSelectSchema,
  createdResponseSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  passwordUpdateSchema,
  translateMessage,
  userCreateSchema,
  userListQuerySchema,
  userNameQuerySchema,
  userNameSchema,
  userPasswordSetSchema,
  userSchema,
  userUpdateSchema,
} from '@rota/contract';
import { actorOf, authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { AppError, fieldIssuesOf } from '../../lib/errors.js';
import { accountRoutes } from './account-routes.js';
import { avatarRoutes } from './avatar-routes.js';
import type { UserService } from './service.js';

const tags = ['users'];
const security = bearerSecurity;

/** A body checked here rather than by the route's schema (it has two shapes). */
function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new AppError('invalid_input', fieldIssuesOf(parsed.error));
}

/** Under /api/user/api/v1: the users of the selected client, guarded by USUARIOS.* */
export const userRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (app, { users }) => {
  app.post(
    '/index',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List the users of the selected client',
        description:
          'Searches name, last name, email and access; `profiles_id` filters by profile.',
        body: userListQuerySchema,
        response: { 200: listResponseSchema(userSchema), ...errorResponses },
      },
    },
    async (request) => users.list(actorOf(request), scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One user of the selected client',
        body: idBodySchema,
        response: { 200: dataResponseSchema(userSchema), ...errorResponses },
      },
    },
    async (request) => ({
      data: await users.show(actorOf(request), scopeOf(request), request.body.id),
    }),
  );

  app.post(
    '/name',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'Names of the selected client’s users, for pickers (at most 100, by name)',
        body: userNameQuerySchema,
        response: { 200: z.object({ data: z.array(userNameSchema) }), ...errorResponses },
      },
    },
    async (request) => users.names(scopeOf(request), request.body),
  );

  app.post(
    '/create',
    {
      config: { permissions: ['USUARIOS.CREATE'] },
      schema: {
        tags,
        security,
        summary: 'Create a user with their clients and profiles',
        description:
          'Each of `clients` must be a client where the caller may create users (any, for a platform administrator), with a profile of that client; the first is where the user starts.',
        body: userCreateSchema,
        response: { 201: createdResponseSchema(userSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await users.create(actorOf(request), request.body, authorOf(request));
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      // Open to a key, but not for an email change (UserService.update answers session_required).
      config: { permissions: ['USUARIOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a user of the selected client',
        description:
          '`clients` replaces the memberships among the clients the caller manages and leaves the others. The account (name, email, …) changes only if the caller manages every client of the user. `avatar: null` removes the picture.',
        body: userUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await users.update(actorOf(request), scopeOf(request), request.body, authorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/delete',
    {
      config: { permissions: ['USUARIOS.DELETE'] },
      schema: {
        tags,
        security,
        summary: 'Delete a user, or take them out of the selected client',
        description:
          'The account goes (and its sessions end at once) when the caller manages every client of the user; otherwise only the membership of the selected client goes.',
        body: idBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await users.remove(actorOf(request), scopeOf(request), request.body.id, authorOf(request));
      return reply.status(202).send({ message: translateMessage(request.lang, 'removed') });
    },
  );

  app.put(
    '/update/password',
    {
      // A password is the account itself: a key that could change it could keep its owner out.
      config: { allowPasswordChangePending: true, noApiKey: true },
      schema: {
        tags,
        security,
        summary: 'Change one’s own password, or (USUARIOS.UPDATE) set another user’s',
        description:
          'One’s own: `{current_password, password, confirm_password}`; the other sessions end. Another user’s: `{users_id, password, confirm_password, password_change_required?}` (default true); all their sessions end.',
        body: z
          .looseObject({})
          .describe('passwordUpdate or userPasswordSet, by whether `users_id` names someone else'),
        response: { 204: z.null().describe('Changed'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const usersId = (request.body as { users_id?: unknown }).users_id;
      const forSomeoneElse =
        usersId !== undefined &&
        usersId !== actor.user.users_id &&
        usersId !== String(actor.user.users_id);
      if (!forSomeoneElse) {
        await users.updateOwnPassword(
          actor,
          parse(passwordUpdateSchema, request.body),
          authorOf(request),
        );
        return reply.status(204).send(null);
      }
      // Setting someone else's password is no errand for a user who must first replace their own.
      if (actor.user.password_change_required) throw new AppError('password_change_required');
      const input = parse(userPasswordSetSchema, request.body);
      await users.setPasswordOf(actor, scopeOf(request), input, authorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/client_select',
    {
      // A personal API key belongs to one client: it cannot move (403).
      config: { noApiKey: true },
      schema: {
        tags,
        summary: 'Select the client the console works for',
        security: bearerSecurity,
        body: clientSelectSchema,
        response: {
          204: z.null().describe('Selected'),
          400: errorResponses[400],
          401: errorResponses[401],
          403: errorResponses[403],
        },
      },
    },
    async (request, reply) => {
      await users.selectClient(actorOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  await app.register(accountRoutes, { users });

  // Its own plugin: only the upload parses multipart, the rest keeps its JSON bodies.
  await app.register(avatarRoutes, { users });
};
