import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountUpdateResponseSchema, accountUpdateSchema, translateMessage } from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { UserService } from './service.js';

/** "My account": what a signed-in user changes of their own, no permission needed. */
export const accountRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (
  app,
  { users },
) => {
  app.put(
    '/account/update',
    {
      // An API key acts for its owner on a client's data, never on the owner's own account.
      config: { noApiKey: true },
      schema: {
        tags: ['users'],
        security: bearerSecurity,
        summary:
          'Change one’s own name, last name, language or colour scheme, or remove one’s picture',
        description:
          'Any subset. `language`/`color_scheme` follow the user to any browser (`me` and sign-in answer them); `null` clears them, `avatar: null` removes the picture. The password: PUT `/update/password`; a new picture: POST `/avatar`.',
        body: accountUpdateSchema,
        response: { 200: accountUpdateResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const data = await users.updateOwnAccount(actorOf(request), request.body, authorOf(request));
      return { message: translateMessage(request.lang, 'account_saved'), data };
    },
  );
};
