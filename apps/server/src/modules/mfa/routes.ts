import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  messageResponseSchema,
  mfaCodeBodySchema,
  mfaEnrolmentSchema,
  mfaEnrolSessionResponseSchema,
  mfaRecoveryCodesSchema,
  mfaResetSchema,
  mfaSignInEnrolConfirmSchema,
  mfaSignInEnrolStartSchema,
  mfaStatusSchema,
  mfaVerifySchema,
  sessionResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { readDeviceCookie, setDeviceCookie } from '../auth/device-cookie.js';
import type { AuthService, RequestMeta } from '../auth/service.js';
import type { MfaService } from './service.js';

const tags = ['second factor'];
const security = bearerSecurity;
// One's own factor is managed from a session: an API key cannot turn it off (403).
const config = { noApiKey: true } as const;

const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  lang: request.lang,
  device: readDeviceCookie(request),
});

/** Under /api/user/api/auth/v1: the second step of a sign-in; the challenge authenticates. */
export const mfaSignInRoutes: FastifyPluginAsyncZod<{
  mfa: MfaService;
  auth: Pick<AuthService, 'rememberDevice'>;
}> = async (app, { mfa, auth }) => {
  const { 400: badRequest, 401: unauthorized, 409: conflict, 429: throttled } = errorResponses;
  const responses = { 400: badRequest, 401: unauthorized, 409: conflict, 429: throttled };

  app.post(
    '/mfa',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Complete a sign-in challenge with a TOTP or recovery code; answers the session a password sign-in answers',
        body: mfaVerifySchema,
        response: { 200: sessionResponseSchema, ...responses },
      },
    },
    async (request, reply) => {
      const m = meta(request);
      const session = await mfa.verify(request.body, m, authorOf(request));
      setDeviceCookie(reply, request, await auth.rememberDevice(session.users_id, m.device));
      return session;
    },
  );

  app.post(
    '/mfa/enrol/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Set up a second factor during sign-in (a client requires one): secret and QR',
        body: mfaSignInEnrolStartSchema,
        response: { 200: mfaEnrolmentSchema, ...responses },
      },
    },
    async (request) => mfa.signInEnrolStart(request.body.challenge),
  );

  app.post(
    '/mfa/enrol/confirm',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Confirm the new factor with a code: the session, with recovery codes shown once',
        body: mfaSignInEnrolConfirmSchema,
        response: { 200: mfaEnrolSessionResponseSchema, ...responses },
      },
    },
    async (request, reply) => {
      const m = meta(request);
      const session = await mfa.signInEnrolConfirm(request.body, m, authorOf(request));
      setDeviceCookie(reply, request, await auth.rememberDevice(session.users_id, m.device));
      return session;
    },
  );
};

/** /api/user/mfa/api/v1: the caller's own second factor, and an administrator's reset. */
export const mfaRoutes: FastifyPluginAsyncZod<{ mfa: MfaService }> = async (app, { mfa }) => {
  app.post(
    '/status',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Whether the caller’s second factor is on, and whether a client requires one',
        response: { 200: mfaStatusSchema, ...errorResponses },
      },
    },
    async (request) => mfa.status(actorOf(request)),
  );

  app.post(
    '/enrol/start',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'A new secret (replacing one not yet confirmed), its otpauth:// address and QR',
        response: { 200: mfaEnrolmentSchema, ...errorResponses },
      },
    },
    async (request) => mfa.enrolStart(actorOf(request)),
  );

  app.post(
    '/enrol/confirm',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Turn the factor on with a first code; answers the recovery codes this once',
        body: mfaCodeBodySchema,
        response: { 200: mfaRecoveryCodesSchema, ...errorResponses },
      },
    },
    async (request) => mfa.enrolConfirm(actorOf(request), request.body.code, authorOf(request)),
  );

  app.post(
    '/recovery-codes',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'New recovery codes for a current code; the old ones stop working',
        body: mfaCodeBodySchema,
        response: { 200: mfaRecoveryCodesSchema, ...errorResponses },
      },
    },
    async (request) =>
      mfa.regenerateRecoveryCodes(actorOf(request), request.body.code, authorOf(request)),
  );

  app.post(
    '/disable',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Turn the factor off for a current code (refused when a client requires one)',
        body: mfaCodeBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await mfa.disable(actorOf(request), request.body.code, authorOf(request));
      return { message: translateMessage(request.lang, 'mfa_disabled') };
    },
  );

  app.post(
    '/reset',
    {
      // Removing someone's factor weakens their account: never a key's errand.
      config: { permissions: ['USUARIOS.UPDATE'], noApiKey: true },
      schema: {
        tags,
        security,
        summary:
          'Reset a member’s second factor (USUARIOS.UPDATE): it is removed and their sessions end',
        body: mfaResetSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await mfa.reset(actorOf(request), request.body.users_id, authorOf(request));
      return { message: translateMessage(request.lang, 'mfa_reset') };
    },
  );
};
