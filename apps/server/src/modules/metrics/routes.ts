import type { FastifyPluginAsync } from 'fastify';
import { bearerToken } from '../../http/auth.js';
import { AppError } from '../../lib/errors.js';
import { isDirectLoopback, tokenMatches } from './access.js';
import type { MetricsService } from './service.js';

/**
 * `GET /metrics` (at the root, where Prometheus looks by default): answered to this machine
 * (the socket's peer, with no proxy in between) or to a caller bearing METRICS_TOKEN; anyone else gets 401, the same
 * whether the token is missing, wrong, or not configured at all.
 */
export const metricsRoutes: FastifyPluginAsync<{
  metrics: MetricsService;
  token: string | undefined;
}> = async (app, { metrics, token }) => {
  app.get(
    '/metrics',
    // Not part of the JSON API: kept out of the OpenAPI document and its generated client.
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const local = isDirectLoopback(request);
      if (!local && !tokenMatches(bearerToken(request), token)) {
        throw new AppError('unauthorized');
      }
      const { body, contentType } = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    },
  );
};
