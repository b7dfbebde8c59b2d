import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  createdResponseSchema,
  idBodySchema,
  listResponseSchema,
  messageResponseSchema,
  oidcMappingCreateSchema,
  oidcMappingListQuerySchema,
  oidcMappingSchema,
  oidcMappingUpdateSchema,
  oidcLinkStartResponseSchema,
  oidcLinkStatusSchema,
  oidcPublicConfigSchema,
  oidcUnlinkSchema,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  translateMessage,
  type OidcErrorCode,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { RequestMeta } from '../auth/service.js';
import {
  ATTEMPT_COOKIE,
  ATTEMPT_COOKIE_PATH,
  ATTEMPT_TTL_SECONDS,
  openAttempt,
  readCookie,
  safeReturnTo,
  sealAttempt,
  serializeCookie,
} from './cookies.js';
import type { OidcClient } from './oidc-client.js';
import type { OidcMappingService } from './service.js';
import { OidcFailure, type OidcSignInService } from './sign-in.js';

const tags = ['oidc'];

/** Where linking from My account comes back to: the account page, with its outcome. */
const ACCOUNT_PAGE = '/account';

const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  lang: request.lang,
});

export interface OidcRouteOptions {
  /** Null when OIDC_ISSUER is unset: start and callback answer 404 oidc_not_configured. */
  oidc: OidcClient | null;
  signIn: OidcSignInService | null;
  secretBox: SecretBox;
  publicUrl: string;
}

/** OpenID Connect sign-in, under /api/user/api/auth/v1/oidc; all public. */
export const oidcAuthRoutes: FastifyPluginAsyncZod<OidcRouteOptions> = async (app, options) => {
  const { oidc, signIn, secretBox } = options;
  const secure = options.publicUrl.startsWith('https:');
  const attemptCookie = (value: string, maxAge: number) =>
    serializeCookie(ATTEMPT_COOKIE, value, {
      path: ATTEMPT_COOKIE_PATH,
      maxAge,
      httpOnly: true,
      secure,
    });

  app.get(
    '/config',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Whether single sign-on is on, its button label, and whether the password form is',
        response: { 200: oidcPublicConfigSchema },
      },
    },
    async () => ({
      enabled: oidc !== null,
      label: oidc?.settings.label ?? null,
      local_login: oidc?.settings.localLogin ?? true,
    }),
  );

  app.get(
    '/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Send the browser to the identity provider (authorization code with PKCE)',
        querystring: z.object({ return_to: z.string().max(2000).optional() }),
        response: {
          302: z.null().describe('To the provider’s authorization page (`Location`)'),
          404: errorResponses[404],
        },
      },
    },
    async (request, reply) => {
      if (!oidc) throw new AppError('oidc_not_configured');
      const { url, attempt } = await oidc.start(safeReturnTo(request.query.return_to));
      void reply.header(
        'set-cookie',
        attemptCookie(sealAttempt(secretBox, attempt), ATTEMPT_TTL_SECONDS),
      );
      void reply.header('cache-control', 'no-store');
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/callback',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The provider sends the browser back here: sign in, then go to the page asked for',
        response: {
          302: z
            .null()
            .describe(
              'Signed in: to the page asked for, with the session cookie; refused: to the sign-in page with `sso_error`',
            ),
          404: errorResponses[404],
        },
      },
    },
    async (request, reply) => {
      if (!oidc || !signIn) throw new AppError('oidc_not_configured');
      const rawUrl = request.raw.url ?? '';
      const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?')) : '';
      const params = new URLSearchParams(query);
      // Spent whatever happens: an attempt is good for one callback.
      const cookies = [attemptCookie('', 0)];
      void reply.header('cache-control', 'no-store');
      const attempt = openAttempt(secretBox, readCookie(request.headers.cookie, ATTEMPT_COOKIE));
      const linking = attempt?.link;
      const fail = (code: OidcErrorCode, err: unknown) => {
        request.log.warn({ err, code }, 'OpenID Connect sign-in refused');
        void reply.header('set-cookie', cookies);
        const target = linking
          ? `${ACCOUNT_PAGE}?sso_error=${code}`
          : code === 'oidc_no_access'
            ? '/login/no-access'
            : `/login/sign-in?sso_error=${code}`;
        return reply.redirect(target, 302);
      };

      if (!attempt || params.get('state') !== attempt.state) {
        return fail('oidc_state', new Error('no attempt cookie, or its state differs'));
      }
      const error = params.get('error');
      if (error) {
        return fail(
          error === 'access_denied' ? 'oidc_denied' : 'oidc_failed',
          new Error(`the provider answered ${error}`),
        );
      }
      if (linking) {
        try {
          const claims = await oidc.finish(query, attempt);
          const sessionToken = readCookie(request.headers.cookie, SESSION_COOKIE);
          await signIn.link(claims, oidc.settings, linking, sessionToken, authorOf(request));
        } catch (err) {
          return fail(err instanceof OidcFailure ? err.code : 'oidc_failed', err);
        }
        void reply.header('set-cookie', cookies);
        return reply.redirect(`${ACCOUNT_PAGE}?sso=linked`, 302);
      }
      let session;
      try {
        const claims = await oidc.finish(query, attempt);
        session = await signIn.signIn(claims, oidc.settings, meta(request), authorOf(request));
      } catch (err) {
        return fail(err instanceof OidcFailure ? err.code : 'oidc_failed', err);
      }
      cookies.push(
        serializeCookie(SESSION_COOKIE, session.token, {
          path: '/',
          maxAge: SESSION_TTL_SECONDS,
          // The console reads the token from it, as after a password sign-in.
          httpOnly: false,
          secure,
        }),
      );
      void reply.header('set-cookie', cookies);
      return reply.redirect(attempt.returnTo, 302);
    },
  );

  /* One's own link, signed in with a session (an API key cannot link nor unlink). */
  const own = { noApiKey: true } as const;
  const configured = () => {
    if (!oidc || !signIn) throw new AppError('oidc_not_configured');
    return { oidc, signIn };
  };

  app.get(
    '/link',
    {
      config: own,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Whether one’s own account is linked to single sign-on',
        response: { 200: oidcLinkStatusSchema, ...errorResponses },
      },
    },
    async (request) => configured().signIn.status(actorOf(request)),
  );

  app.post(
    '/link/start',
    {
      config: own,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Start linking one’s own account: the browser goes to `url`, and the callback links the identity the provider signs in, then returns to My account (`?sso=linked` or `?sso_error=<code>`)',
        response: { 200: oidcLinkStartResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { oidc: client } = configured();
      const actor = actorOf(request);
      const { url, attempt } = await client.start(ACCOUNT_PAGE);
      const linking = {
        ...attempt,
        link: { users_id: actor.user.users_id, sessions_id: actor.sessionId },
      };
      void reply.header(
        'set-cookie',
        attemptCookie(sealAttempt(secretBox, linking), ATTEMPT_TTL_SECONDS),
      );
      void reply.header('cache-control', 'no-store');
      return { url };
    },
  );

  app.post(
    '/link/delete',
    {
      config: own,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Unlink one’s own account from single sign-on; the password is asked, so the account keeps a way to sign in',
        body: oidcUnlinkSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { oidc: client, signIn: service } = configured();
      await service.unlink(
        actorOf(request),
        request.body.password,
        client.settings,
        authorOf(request),
      );
      return { message: translateMessage(request.lang, 'oidc_unlinked') };
    },
  );
};

/** /api/user/oidc/mapping/api/v1: claim value → client and profile, platform administrators only. */
export const oidcMappingRoutes: FastifyPluginAsyncZod<{ mappings: OidcMappingService }> = async (
  app,
  { mappings },
) => {
  const security = bearerSecurity;

  app.post(
    '/index',
    {
      schema: {
        tags,
        security,
        summary: 'List the group mappings',
        body: oidcMappingListQuerySchema,
        response: { 200: listResponseSchema(oidcMappingSchema), ...errorResponses },
      },
    },
    async (request) => mappings.list(actorOf(request), request.body),
  );

  app.post(
    '/create',
    {
      schema: {
        tags,
        security,
        summary: 'Map a group (a value of the groups claim) to a client and one of its profiles',
        body: oidcMappingCreateSchema,
        response: { 201: createdResponseSchema(oidcMappingSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await mappings.create(actorOf(request), request.body, authorOf(request));
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.put(
    '/update',
    {
      schema: {
        tags,
        security,
        summary: 'Change a group mapping',
        body: oidcMappingUpdateSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await mappings.update(actorOf(request), request.body, authorOf(request));
      return { message: translateMessage(request.lang, 'updated') };
    },
  );

  app.post(
    '/delete',
    {
      schema: {
        tags,
        security,
        summary: 'Remove a group mapping (memberships change at the next sign-in)',
        body: idBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await mappings.remove(actorOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'deleted') };
    },
  );
};
