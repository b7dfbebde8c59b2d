import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  accessRequestCreateSchema,
  checkCodeSchema,
  meResponseSchema,
  messageResponseSchema,
  mfaChallengeResponseSchema,
  recoverPasswordSchema,
  resetPasswordSchema,
  sessionCreateSchema,
  sessionResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { readDeviceCookie, setDeviceCookie } from './device-cookie.js';
import type { AuthService, RequestMeta } from './service.js';

const tags = ['auth'];
const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  lang: request.lang,
  device: readDeviceCookie(request),
});

/** Authentication, under /api/user/api/auth/v1. */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  const { 400: badRequest, 401: unauthorized, 429: throttled } = errorResponses;

  app.post(
    '/session',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Sign in with the access identifier (or email) and password; a second factor answers a challenge instead of the token',
        body: sessionCreateSchema,
        response: {
          200: z.union([sessionResponseSchema, mfaChallengeResponseSchema]),
          400: badRequest,
          401: unauthorized,
          429: throttled,
        },
      },
    },
    async (request, reply) => {
      const m = meta(request);
      const answer = await auth.signIn(request.body, m, authorOf(request));
      // Only a completed sign-in makes the browser a known device (a challenge is not one yet).
      if ('token' in answer)
        setDeviceCookie(reply, request, await auth.rememberDevice(answer.users_id, m.device));
      return answer;
    },
  );

  app.post(
    '/me',
    {
      config: { allowPasswordChangePending: true },
      schema: {
        tags,
        summary: 'The signed-in user',
        security: bearerSecurity,
        response: { 200: meResponseSchema, 401: unauthorized },
      },
    },
    async (request) => auth.me(actorOf(request)),
  );

  app.post(
    '/logout',
    {
      // An API key is no session to end (revoke it instead).
      config: { allowPasswordChangePending: true, noApiKey: true },
      schema: {
        tags,
        summary: 'Revoke the session token',
        security: bearerSecurity,
        response: { 200: messageResponseSchema, 401: unauthorized },
      },
    },
    async (request) => {
      await auth.signOut(actorOf(request), authorOf(request));
      return { message: translateMessage(request.lang, 'signed_out') };
    },
  );

  app.post(
    '/recover-password',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Mail a single-use recovery link (same answer whether the email exists or not)',
        body: recoverPasswordSchema,
        response: { 200: messageResponseSchema, 400: badRequest, 429: throttled },
      },
      // The mail is worked on after the answer has left.
      onResponse: async (_request, reply) => {
        if (reply.statusCode === 200) auth.recoveryOutbox.kick();
      },
    },
    async (request) => {
      await auth.recoverPassword(request.body, meta(request));
      return { message: translateMessage(request.lang, 'recover_password_sent') };
    },
  );

  app.post(
    '/check-code',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Tell whether a recovery code can still be used',
        body: checkCodeSchema,
        response: { 200: messageResponseSchema, 400: badRequest, 429: throttled },
      },
    },
    async (request) => {
      await auth.checkCode(request.body.code, meta(request));
      return { message: translateMessage(request.lang, 'code_valid') };
    },
  );

  app.post(
    '/reset-password',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Set a new password with a recovery code (single use, 30 minutes); confirm_password is optional',
        body: resetPasswordSchema,
        response: { 200: messageResponseSchema, 400: badRequest, 429: throttled },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body, meta(request), authorOf(request));
      return { message: translateMessage(request.lang, 'password_reset') };
    },
  );

  app.post(
    '/request-access',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Ask the administrators for an account',
        body: accessRequestCreateSchema,
        response: { 200: messageResponseSchema, 400: badRequest, 429: throttled },
      },
    },
    async (request) => {
      await auth.requestAccess(request.body, meta(request));
      return { message: translateMessage(request.lang, 'request_access_received') };
    },
  );
};
