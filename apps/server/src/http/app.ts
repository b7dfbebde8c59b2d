import { systemClock, type Clock } from '../lib/clock.js';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { refuseUnstorable } from '@rota/contract';
import type { Config } from '../config/env.js';
import type { Db } from '../db/client.js';
import { pickLanguage } from '../lib/language.js';
import { createMailer, type Mailer } from '../lib/mailer.js';
import { RateLimiter } from '../lib/rate-limiter.js';
import type { SecretBox } from '../lib/secret-box.js';
import { authRoutes } from '../modules/auth/routes.js';
import { AuthService } from '../modules/auth/service.js';
import { sessionRoutes } from '../modules/auth/session-routes.js';
import { mfaRoutes, mfaSignInRoutes } from '../modules/mfa/routes.js';
import { MfaService } from '../modules/mfa/service.js';
import { healthRoutes } from '../modules/health/routes.js';
import { profileRoutes } from '../modules/profiles/routes.js';
import { ProfileService } from '../modules/profiles/service.js';
import { userRoutes } from '../modules/users/routes.js';
import { robotRoutes } from '../modules/robots/routes.js';
import { RobotService } from '../modules/robots/service.js';
import { robotVersionRoutes } from '../modules/robot-versions/routes.js';
import { RobotVersionService } from '../modules/robot-versions/service.js';
import { robotFieldRoutes } from '../modules/robot-fields/routes.js';
import { RobotFieldService } from '../modules/robot-fields/service.js';
import { taskRoutes } from '../modules/tasks/routes.js';
import { TaskService } from '../modules/tasks/service.js';
import { vmRoutes } from '../modules/vms/routes.js';
import { VmService } from '../modules/vms/service.js';
import { agentRoutes } from '../modules/agents/routes.js';
import { AgentService } from '../modules/agents/service.js';
import { schedulingRoutes } from '../modules/schedulings/routes.js';
import { SchedulingService } from '../modules/schedulings/service.js';
import { calendarRoutes } from '../modules/calendars/routes.js';
import { CalendarService } from '../modules/calendars/service.js';
import { schedulingVmRoutes } from '../modules/schedulings/vm-routes.js';
import { SchedulingVmService } from '../modules/schedulings/vm-service.js';
import { parameterRoutes } from '../modules/parameters/routes.js';
import { ParameterService } from '../modules/parameters/service.js';
import { UserService } from '../modules/users/service.js';
import { AccountService } from '../modules/users/account-service.js';
import { activityRoutes } from '../modules/executions/activity-routes.js';
import { artifactActivityRoutes, artifactRunRoutes } from '../modules/artifacts/routes.js';
import { ArtifactService } from '../modules/artifacts/service.js';
import { ActivityService } from '../modules/executions/activity-service.js';
import { dashboardRoutes } from '../modules/dashboard/routes.js';
import { DashboardService } from '../modules/dashboard/service.js';
import { agentProtocolRoutes } from '../modules/agent-protocol/agent-routes.js';
import type { WorkSignal } from '../modules/dispatch/claim-waiters.js';
import { DispatchService, type DispatchTimings } from '../modules/dispatch/dispatch-service.js';
import { EngineLoop } from '../modules/scheduler/engine-loop.js';
import { RetentionService } from '../modules/retention/service.js';
import { QueueTrigger } from '../modules/scheduler/queue-trigger.js';
import {
  CHANNELS,
  EnginePublisher,
  messagesOf,
  type AgentChanged,
  type ParametersChanged,
} from '../modules/dispatch/live-events.js';
import { runApiRoutes } from '../modules/run-api/run-api-routes.js';
import { RunApiService } from '../modules/run-api/run-api-service.js';
import { RunService } from '../modules/executions/run-service.js';
import { eventRoutes } from '../modules/events/routes.js';
import { LiveHub } from '../modules/events/live-hub.js';
import type { EventBus } from '../lib/event-bus.js';
import { AuditService } from '../modules/audit/service.js';
import { auditRoutes } from '../modules/audit/routes.js';
import { userClientRoutes } from '../modules/user-clients/routes.js';
import { UserClientService } from '../modules/user-clients/service.js';
import { clientRoutes } from '../modules/clients/routes.js';
import { ClientService } from '../modules/clients/service.js';
import { accessRequestRoutes } from '../modules/users/access-request-routes.js';
import { AccessRequestService } from '../modules/users/access-request-service.js';
import { environmentRoutes } from '../modules/environments/routes.js';
import { EnvironmentService } from '../modules/environments/service.js';
import { statusItemRoutes } from '../modules/status-items/routes.js';
import { StatusItemService } from '../modules/status-items/service.js';
import { teamRoutes } from '../modules/teams/routes.js';
import { teamRobotRoutes, teamUserRoutes } from '../modules/teams/member-routes.js';
import { TeamService } from '../modules/teams/service.js';
import { TeamRobotService, TeamUserService } from '../modules/teams/member-service.js';
import { createBlobStore } from '../modules/blobs/blob-store.js';
import { BlobSweeper, blobTempDirs } from '../modules/blobs/sweeper.js';
import { AgentPresenceService } from '../modules/agents/presence-service.js';
import { ExecutionStatsService } from '../modules/executions/execution-stats-service.js';
import { triggerRoutes } from '../modules/triggers/routes.js';
import { TRIGGER_FIRE_WINDOW_SECONDS, TriggerService } from '../modules/triggers/service.js';
import { apiKeyRoutes } from '../modules/api-keys/routes.js';
import { ApiKeyService } from '../modules/api-keys/service.js';
import { AlertWorker, type AlertWorkerOptions } from '../modules/alerts/alert-worker.js';
import { alertDeliveryRoutes, alertFeedRoutes, alertRoutes } from '../modules/alerts/routes.js';
import { AlertService } from '../modules/alerts/service.js';
import { metricsRoutes } from '../modules/metrics/routes.js';
import type { OidcClient } from '../modules/oidc/oidc-client.js';
import { oidcAuthRoutes, oidcMappingRoutes } from '../modules/oidc/routes.js';
import { OidcMappingService } from '../modules/oidc/service.js';
import { OidcSignInService } from '../modules/oidc/sign-in.js';
import { MetricsService } from '../modules/metrics/service.js';
import { registerAuthHooks } from './auth.js';
import { registerConsole } from './console.js';
import { registerErrorHandler } from './error-handler.js';
import { registerSecurityHeaders } from './security-headers.js';
import { loggableError } from './loggable-error.js';
import { swaggerOptions } from './openapi.js';
import type { Services } from './services.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  config: Pick<Config, 'publicUrl' | 'SMTP_URL' | 'MAIL_FROM' | 'TRUST_PROXY' | 'METRICS_TOKEN'>;
  db: Db;
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
  registerErrorHandler(app);
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

  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: options.config.SMTP_URL,
      from: options.config.MAIL_FROM,
      logger: app.log,
    });
  const { db } = options;
  const limiter = new RateLimiter(db, 15 * 60);
  const publisher = new EnginePublisher(options.events, (error) =>
    app.log.warn({ err: error }, 'could not publish an engine event'),
  );
  const clock = options.clock ?? systemClock;
  const audit = new AuditService(db);
  const parameters = new ParameterService(db, options.secretBox, audit, (clientId) =>
    publisher.parametersChanged(clientId),
  );
  // Heartbeats are written once a second; an agent back from offline is announced then.
  const presence = new AgentPresenceService(
    db,
    (back) => {
      for (const a of back) {
        publisher.live(a.client, { type: 'agent', rota_nodes_id: a.id, connectivity: 'active' });
      }
    },
    { log: app.log },
  );
  const statusItems = new StatusItemService(db, audit);
  const dispatch = new DispatchService(
    db,
    parameters,
    presence,
    publisher,
    options.engine?.timings,
    (robotId) => queueTrigger.runEnded(robotId),
    (waitedSeconds) => metrics.claimed(waitedSeconds),
    app.log,
  );
  const vms = new VmService(db, audit);
  const environments = new EnvironmentService(db, options.secretBox, audit);
  // Packages and pictures: in PostgreSQL when the database is, so every instance serves them.
  const blobs = createBlobStore(db, options.dataDir);
  const blobSweeper = new BlobSweeper(db, blobs, blobTempDirs(options.dataDir), {
    log: app.log,
  });
  // Users, memberships, teams, sign-in and clients: each owner's service, handed what it calls.
  const teams = new TeamService(db, audit);
  const accounts = new AccountService(db);
  const userClients = new UserClientService(db, accounts, teams, audit);
  const accessRequests = new AccessRequestService(db, audit);
  // The second factor opens sessions through auth, which asks it at each sign-in.
  const mfa = new MfaService({
    db,
    secretBox: options.secretBox,
    clock,
    limiter,
    audit,
    accounts,
    sessions: (): AuthService => auth,
  });
  const auth: AuthService = new AuthService({
    db,
    mfa,
    clock,
    config: options.config,
    mailer,
    limiter,
    logger: app.log,
    accounts,
    userClients,
    accessRequests,
    audit,
    localLogin: options.oidc?.settings.localLogin ?? true,
  });
  // Schedulings check their robot, and deleting a robot takes its deleted schedulings along.
  const robots: RobotService = new RobotService(db, audit, teams, () => schedulings);
  const schedulings = new SchedulingService(db, audit, robots, vms, clock);
  const robotFields = new RobotFieldService(db, audit, robots);
  const queueTrigger = new QueueTrigger(db, dispatch, publisher, clock, { log: app.log });
  const tasks = new TaskService(db, audit, robots, robotFields, clock, (robotIds) =>
    queueTrigger.tasksCreated(robotIds),
  );
  const agents = new AgentService(db, audit, vms, (id) => {
    dispatch.forgetAgents([id]);
    publisher.agentChanged(id);
  });
  // The alert outbox: its own loop, like the engine's, on every instance.
  const alertWorker = new AlertWorker(db, {
    clock,
    publicUrl: options.config.publicUrl,
    mailer,
    secretBox: options.secretBox,
    publisher,
    log: app.log,
    lookup: options.alerts?.lookup,
    onOutcome: (outcome, channel) => {
      metrics.alertOutcome(outcome, channel);
      options.alerts?.onOutcome?.(outcome, channel);
    },
  });
  const runs = new RunService(db, dispatch, audit, robots, vms);
  const services: Services = {
    auth,
    users: new UserService(db, blobs, { accounts, userClients, auth, audit }),
    profiles: new ProfileService(db, audit),
    robots,
    robotVersions: new RobotVersionService(
      db,
      audit,
      robots,
      options.dataDir,
      blobs,
      options.robotPackageMaxBytes,
    ),
    blobs,
    blobSweeper,
    robotFields,
    tasks,
    vms,
    agents,
    schedulings,
    calendars: new CalendarService(db, audit, schedulings),
    schedulingVms: new SchedulingVmService(db, audit, vms),
    parameters,
    dispatch,
    presence,
    runApi: new RunApiService(db, parameters, environments, tasks, publisher),
    runs,
    activity: new ActivityService(db, dispatch, audit),
    artifacts: new ArtifactService(db, blobs, options.dataDir),
    dashboard: new DashboardService(new ExecutionStatsService(db), agents, vms, statusItems, tasks),
    liveHub: new LiveHub(options.events),
    audit,
    userClients,
    clients: new ClientService(db, userClients, audit),
    accessRequests,
    environments,
    statusItems,
    teams,
    teamRobots: new TeamRobotService(db, audit),
    teamUsers: new TeamUserService(db, audit),
    // Run triggers: fires are limited per trigger in a one-minute window.
    triggers: new TriggerService(
      db,
      audit,
      robots,
      tasks,
      runs,
      new RateLimiter(db, TRIGGER_FIRE_WINDOW_SECONDS),
      clock,
    ),
    apiKeys: new ApiKeyService(db, audit, clock),
    alerts: new AlertService(db, audit, options.secretBox, alertWorker, clock),
  };
  const engine = new EngineLoop(db, dispatch, presence, tasks, publisher, {
    intervalMs: options.engine?.intervalMs ?? 1000,
    log: app.log,
    queueTrigger,
    clock,
  });
  const stopWork = options.events.subscribe(CHANNELS.work, (payload) => {
    for (const signal of messagesOf<WorkSignal>(payload)) {
      if (signal.i !== publisher.instance) dispatch.onWork(signal);
    }
  });
  const stopTasks = options.events.subscribe(CHANNELS.tasks, (payload) =>
    queueTrigger.onNotified(payload),
  );
  const stopAgents = options.events.subscribe(CHANNELS.agents, (payload) =>
    dispatch.forgetAgents(messagesOf<AgentChanged>(payload).map((m) => m.a)),
  );
  const stopParameters = options.events.subscribe(CHANNELS.parameters, (payload) =>
    parameters.forget(messagesOf<ParametersChanged>(payload).map((m) => m.c)),
  );
  const stopParameterGaps = options.events.onGap((listening) => parameters.notifyGap(listening));
  const stopGaps = options.events.onGap((listening) => dispatch.notifyGap(listening));
  const retention = new RetentionService(db, {
    clock,
    log: app.log,
    pruneThrottles: () => auth.prune(),
  });
  app.decorate('engine', engine);
  app.decorate('retention', retention);
  app.decorate('services', services);
  app.decorate('metrics', metrics);
  app.addHook('onReady', async () => {
    await engine.recover();
    if (options.engine?.loop !== false) engine.start();
    if (options.engine?.loop !== false) presence.start();
    if (options.engine?.loop !== false) retention.start();
    if (options.engine?.loop !== false) alertWorker.start();
    if (options.blobSweep !== false) blobSweeper.start();
  });
  app.addHook('preClose', async () => {
    // Waiting agents get "no work" at once and re-poll (another instance, or this one later).
    dispatch.waiters.closeAll();
  });
  app.addHook('onClose', async () => {
    await engine.stop();
    await presence.stop();
    await retention.stop();
    await alertWorker.stop();
    await queueTrigger.stop();
    await blobSweeper.stop();
    stopWork();
    stopTasks();
    stopAgents();
    stopParameters();
    stopParameterGaps();
    stopGaps();
    services.liveHub.close();
    await services.auth.drain();
  });

  await app.register(swagger, swaggerOptions);
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace(/\s*upgrade-insecure-requests;?/, '').replaceAll(' https:', ''),
  });

  await app.register(
    async (api) => {
      registerAuthHooks(api, auth, services.apiKeys);
      // A POST or PUT sent without a body means "no fields": let the schema's defaults apply.
      api.addHook('preValidation', (request, _reply, done) => {
        if (request.body === undefined || request.body === null) request.body = {};
        done();
      });
      await api.register(healthRoutes, { probe: () => db.execute(sql`select 1`) });
      await api.register(authRoutes, { auth, prefix: '/user/api/auth/v1' });
      await api.register(sessionRoutes, { auth, prefix: '/user/api/auth/v1/sessions' });
      await api.register(mfaSignInRoutes, { mfa, prefix: '/user/api/auth/v1' });
      await api.register(mfaRoutes, { mfa, prefix: '/user/mfa/api/v1' });
      await api.register(oidcAuthRoutes, {
        oidc: options.oidc ?? null,
        signIn: options.oidc
          ? new OidcSignInService({
              db,
              groupsClaim: options.oidc.settings.groupsClaim,
              accounts,
              userClients,
              auth,
              audit,
              logger: app.log,
            })
          : null,
        secretBox: options.secretBox,
        publicUrl: options.config.publicUrl,
        prefix: '/user/api/auth/v1/oidc',
      });
      await api.register(oidcMappingRoutes, {
        mappings: new OidcMappingService(db, userClients, audit),
        prefix: '/user/oidc/mapping/api/v1',
      });
      await api.register(userRoutes, { users: services.users, prefix: '/user/api/v1' });
      await api.register(profileRoutes, {
        profiles: services.profiles,
        prefix: '/user/profile/api/v1',
      });
      await api.register(userClientRoutes, { userClients, prefix: '/user/client/api/v1' });
      await api.register(accessRequestRoutes, {
        accessRequests,
        prefix: '/user/access-request/api/v1',
      });
      await api.register(clientRoutes, {
        clients: services.clients,
        prefix: '/rota/client/api/v1',
      });
      await api.register(robotRoutes, {
        robots: services.robots,
        runs: services.runs,
        prefix: '/rota/robot/api/v1',
      });
      await api.register(robotVersionRoutes, {
        versions: services.robotVersions,
        prefix: '/rota/robot/version/api/v1',
      });
      await api.register(robotFieldRoutes, {
        fields: services.robotFields,
        prefix: '/rota/robot/field/api/v1',
      });
      await api.register(taskRoutes, {
        tasks: services.tasks,
        prefix: '/rota/task/api/v1',
      });
      await api.register(vmRoutes, { vms: services.vms, prefix: '/rota/vm/api/v1' });
      await api.register(agentRoutes, { agents: services.agents, prefix: '/rota/node/api/v1' });
      await api.register(schedulingRoutes, {
        schedulings: services.schedulings,
        runs: services.runs,
        prefix: '/rota/scheduling/api/v1',
      });
      await api.register(calendarRoutes, {
        calendars: services.calendars,
        prefix: '/rota/calendar/api/v1',
      });
      await api.register(schedulingVmRoutes, {
        schedulingVms: services.schedulingVms,
        prefix: '/rota/scheduling/vms/api/v1',
      });
      await api.register(parameterRoutes, {
        parameters: services.parameters,
        prefix: '/rota/parameter/api/v1',
      });
      await api.register(activityRoutes, {
        activity: services.activity,
        prefix: '/rota/activity/api/v1',
      });
      await api.register(dashboardRoutes, {
        dashboard: services.dashboard,
        prefix: '/rota/dashboard/api/v1',
      });
      await api.register(auditRoutes, { audit, prefix: '/rota/audit/api/v1' });
      await api.register(environmentRoutes, {
        environments: services.environments,
        prefix: '/rota/env/api/v1',
      });
      await api.register(statusItemRoutes, {
        statusItems: services.statusItems,
        prefix: '/rota/status/item/api/v1',
      });
      await api.register(teamRoutes, { teams, prefix: '/teams/api/v1' });
      await api.register(teamRobotRoutes, {
        teamRobots: services.teamRobots,
        prefix: '/teams/robots/api/v1',
      });
      await api.register(teamUserRoutes, {
        teamUsers: services.teamUsers,
        prefix: '/teams/users/api/v1',
      });
      await api.register(triggerRoutes, {
        triggers: services.triggers,
        prefix: '/rota/trigger/api/v1',
      });
      await api.register(apiKeyRoutes, {
        apiKeys: services.apiKeys,
        prefix: '/user/apikey/api/v1',
      });
      await api.register(eventRoutes, {
        liveHub: services.liveHub,
        auth: services.auth,
        prefix: '/rota/events/api/v1',
      });
      await api.register(agentProtocolRoutes, {
        dispatch,
        blobs,
        prefix: '/rota/agent/api/v1',
      });
      await api.register(alertRoutes, { alerts: services.alerts, prefix: '/rota/alert/api/v1' });
      await api.register(alertDeliveryRoutes, {
        alerts: services.alerts,
        prefix: '/rota/alert/delivery/api/v1',
      });
      await api.register(alertFeedRoutes, {
        alerts: services.alerts,
        prefix: '/rota/alert/feed/api/v1',
      });
      await api.register(runApiRoutes, { runApi: services.runApi, prefix: '/rota/run/api/v1' });
      await api.register(artifactRunRoutes, {
        artifacts: services.artifacts,
        runApi: services.runApi,
        prefix: '/rota/run/api/v1/artifact',
      });
      await api.register(artifactActivityRoutes, {
        artifacts: services.artifacts,
        prefix: '/rota/activity/api/v1/artifact',
      });
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
