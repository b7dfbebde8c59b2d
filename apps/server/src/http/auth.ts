import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, hasPermissions } from '@rota/contract';
import { AppError } from '../lib/errors.js';
import { userScope } from '../lib/tenant-scope.js';
import type { ApiKeyService } from '../modules/api-keys/service.js';
import type { AuditAuthor } from '../modules/audit/service.js';
import type { AuthService } from '../modules/auth/service.js';
import type { Actor } from './types.js';

export function bearerToken(request: {
  headers: { authorization?: string | undefined };
}): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The actor behind a bearer token; the one place a user's scope is built (userScope). */
export async function resolveActor(
  auth: Pick<AuthService, 'sessionOf' | 'touchSession'>,
  token: string,
  apiKeys?: Pick<ApiKeyService, 'identify'>,
): Promise<Actor> {
  if (token.startsWith(API_KEY_PREFIX)) {
    // A personal API key: its client is the scope, whatever the user selected.
    const key = apiKeys ? await apiKeys.identify(token) : undefined;
    if (!key) throw new AppError('unauthorized');
    return {
      sessionId: 0,
      user: key.user,
      scope: userScope(key.clientId, key.teamRobotIds),
      permissions: key.permissions,
      apiKey: key.apiKey,
    };
  }
  const found = await auth.sessionOf(token);
  if (!found || found.revoked_at) throw new AppError('unauthorized');
  if (found.expires_at.getTime() <= Date.now()) throw new AppError('session_expired');
  await auth.touchSession(found);
  return {
    sessionId: found.sessions_id,
    user: found.user,
    scope: found.membership_client_id
      ? userScope(found.membership_client_id, found.team_robot_ids?.map(Number) ?? null)
      : null,
    permissions: found.membership_client_id ? found.permissions : [],
  };
}

/**
 * Every route in the scope this is registered on needs a session unless it says `public`,
 * so a new route is closed by default. Authentication runs first (before the body is even
 * parsed); the permission check runs after validation (route config `permissions`).
 */
export function registerAuthHooks(
  app: FastifyInstance,
  auth: Pick<AuthService, 'sessionOf' | 'touchSession'>,
  apiKeys?: Pick<ApiKeyService, 'identify'>,
) {
  app.decorateRequest('actor', null);

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const token = bearerToken(request);
    if (!token) throw new AppError('unauthorized');
    const actor = await resolveActor(auth, token, apiKeys);
    if (actor.apiKey && config.noApiKey) throw new AppError('session_required');
    if (actor.user.password_change_required && !config.allowPasswordChangePending) {
      throw new AppError('password_change_required');
    }
    request.actor = actor;
  });

  // A callback, not async: it runs on every request.
  app.addHook('preHandler', (request, _reply, done) => {
    const required = request.routeOptions.config.permissions ?? [];
    if (required.length === 0) return done();
    const actor = request.actor;
    if (!actor || !actor.scope || !hasPermissions(actor.permissions, required)) {
      return done(new AppError('forbidden'));
    }
    done();
  });
}

/** The actor of a route that is not public; the hook above guarantees it. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized');
  return request.actor;
}

/** Who is acting, for the audit record of what they change (see AuditService.write). */
export function authorOf(request: FastifyRequest): AuditAuthor {
  const actor = request.actor;
  return {
    user: actor ? actor.user : null,
    clientId: actor?.scope?.clientId ?? null,
    ip: request.ip,
    requestId: request.id,
    apiKeyName: actor?.apiKey?.name ?? null,
  };
}

/** The tenant scope of the selected client; routes that read tenant rows go through it. */
export function scopeOf(request: FastifyRequest) {
  const actor = actorOf(request);
  if (!actor.scope) throw new AppError('forbidden');
  return actor.scope;
}
