import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { refuseUnstorable } from '@rota/contract';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from '../config/env.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { EventBus } from '../lib/event-bus.js';
import { pickLanguage } from '../lib/language.js';
import type { Mailer } from '../lib/mailer.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { AlertWorkerOptions } from '../modules/alerts/alert-worker.js';
import type { DispatchTimings } from '../modules/dispatch/dispatch-service.js';
import { metricsRoutes } from '../modules/metrics/routes.js';
import { MetricsService } from '../modules/metrics/service.js';
import type { OidcClient } from '../modules/oidc/oidc-client.js';
import type { RetentionService } from '../modules/retention/service.js';
import type { EngineLoop } from '../modules/scheduler/engine-loop.js';
import { registerAuthHooks } from './auth.js';
import { compose } from './compose.js';
import { registerConsole } from './console.js';
import { registerErrorHandler } from './error-handler.js';
import { registerJsonBodyParser } from './json-body.js';
import { loggableError } from './loggable-error.js';
import { swaggerOptions } from './openapi.js';
import { registerApiRoutes } from './routes.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerRequestSpans } from '../lib/telemetry-spans.js';
import type { Services } from './services.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  config: Pick<Config, 'publicUrl' | 'SMTP_URL' | 'MAIL_FROM' | 'TRUST_PROXY' | 'METRICS_TOKEN'> &
    Partial<Pick<Config, 'ALERT_ALLOWED_NETWORKS' | 'AGENT_RELEASE_DIR'>>;
  db: Db;
  /** Where robots' output lines are written (Database.logDb); absent: `db`. */
  logDb?: Db;
  /** Folder of the built console; null serves none. */
  webRoot: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Replaces SMTP/log delivery (tests read the mails this way). */
  mailer?: Mailer;
  /** Seals secrets at rest (parameter passwords, environment credentials). */
  secretBox: SecretBox;
  /** DATA_DIR: robot packages are kept under DATA_DIR/packages. */
  dataDir: string;
  /** Largest robot package accepted; ROBOT_PACKAGE_MAX_BYTES unless a test lowers it. */
  robotPackageMaxBytes?: number;
  /** The periodic sweep of unused packages, pictures and temp files (on unless false). */
  blobSweep?: boolean;
  /** NOTIFY/LISTEN of the database (Database.events). */
  events: EventBus;
  /** What time it is for cron, calendars and task SLAs; tests pass a FakeClock. */
  clock?: Clock;
  /** The scheduler/reaper loop; tests turn it off and call `engine.tick()` themselves. */
  engine?: { loop?: boolean; intervalMs?: number; timings?: DispatchTimings };
  /** The alert worker's seams: outbound name resolution (tests) and per-outcome counts. */
  alerts?: Pick<AlertWorkerOptions, 'lookup' | 'onOutcome'>;
  /** The discovered OpenID provider; null or absent: no single sign-on. */
  oidc?: OidcClient | null;
  /** LOG_REQUESTS: Fastify's two lines a request (incoming, completed); off unless true. */
  logRequests?: boolean;
}

/** An answer slower than this is logged (warn) even when requests are not. */
export const SLOW_REQUEST_MS = 1000;

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  // Mantine writes style attributes and <style> tags at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // The console is often served over plain HTTP on a LAN: do not force https sub-requests.
  upgradeInsecureRequests: null,
};

/** Every `err` logged goes through loggableError: no query parameter or row value in the log. */
function withSafeErrors(logger: AppOptions['logger']): AppOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, err: loggableError } };
}

export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: withSafeErrors(options.logger),
    // Two lines a request cost ~8 % of the server's CPU on a cheap API call; errors
    // (error-handler.ts) and slow answers are logged with their request id either way.
    logController: new LogController({ disableRequestLogging: !options.logRequests }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.config.TRUST_PROXY,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming)
        ? incoming
        : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  // Every request schema, whatever its fields, refuses what PostgreSQL cannot store (NUL) with
  // a field error; robot output replaces it in its own schema first.
  app.setValidatorCompiler((route) =>
    validatorCompiler({ ...route, schema: refuseUnstorable(route.schema as never) }),
  );
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('lang', 'en');
  // Hooks on every request take a callback, not async: no promise and microtask each.
  app.addHook('onRequest', (request, reply, done) => {
    request.lang = pickLanguage(request.headers['accept-language']);
    void reply.header('x-request-id', request.id);
    done();
  });
  registerRequestSpans(app);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  // Every answer, 404s included, counted by its route's template (/metrics).
  const metrics = new MetricsService(options.db, app.log);
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    metrics.httpResponse(request.method, request.routeOptions.url, reply.statusCode, ms / 1000);
    if (ms >= SLOW_REQUEST_MS && !options.logRequests) {
      request.log.warn(
        {
          method: request.method,
          route: request.routeOptions.url,
          statusCode: reply.statusCode,
          ms,
        },
        'slow request',
      );
    }
    done();
  });

  // HSTS only on answers that went out over HTTPS (directly, or through a trusted proxy that
  // says so): sent over plain HTTP on a LAN it is ignored at best, and pins a name to HTTPS at
  // worst.
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { directives: CSP_DIRECTIVES },
    strictTransportSecurity: false,
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') {
      void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    done(null, payload);
  });

  const { services, engine, retention, start, closing, stop } = compose(options, app.log, metrics);
  app.decorate('engine', engine);
  app.decorate('retention', retention);
  app.decorate('services', services);
  app.decorate('metrics', metrics);
  app.addHook('onReady', start);
  app.addHook('preClose', async () => closing());
  app.addHook('onClose', stop);

  await app.register(swagger, swaggerOptions);
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace(/\s*upgrade-insecure-requests;?/, '').replaceAll(' https:', ''),
  });

  await app.register(
    async (api) => {
      registerAuthHooks(api, services.auth, services.apiKeys);
      // A POST or PUT sent without a body means "no fields": let the schema's defaults apply.
      api.addHook('preValidation', (request, _reply, done) => {
        if (request.body === undefined || request.body === null) request.body = {};
        done();
      });
      await registerApiRoutes(api, services, options);
    },
    { prefix: '/api' },
  );

  await app.register(metricsRoutes, { metrics, token: options.config.METRICS_TOKEN });
  await registerConsole(app, options.webRoot);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

declare module 'fastify' {
  interface FastifyInstance {
    engine: EngineLoop;
    /** The nightly retention; tests call `retention.runIfDue()` themselves. */
    retention: RetentionService;
    services: Services;
    /** The /metrics registry; the alert worker reports outcomes to it. */
    metrics: MetricsService;
  }
}
