import { ENGINE_TIMINGS } from '@rota/contract';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock } from '../lib/clock.js';
import { createMailer } from '../lib/mailer.js';
import { OutboundPolicy } from '../lib/outbound-address.js';
import { RateLimiter } from '../lib/rate-limiter.js';
import { AccessRequestService } from '../modules/users/access-request-service.js';
import { AccountService } from '../modules/users/account-service.js';
import { AgentPresenceService } from '../modules/agents/presence-service.js';
import { AgentService } from '../modules/agents/service.js';
import { AgentUpdateService } from '../modules/agents/updates.js';
import { AgentDownloadService, agentReleaseDir } from '../modules/agent-download/service.js';
import { AlertWorker } from '../modules/alerts/alert-worker.js';
import { AlertService } from '../modules/alerts/service.js';
import { LogStreamWorker } from '../modules/log-streams/log-stream-worker.js';
import { LogStreamService } from '../modules/log-streams/service.js';
import { ApiKeyService } from '../modules/api-keys/service.js';
import { ArtifactService } from '../modules/artifacts/service.js';
import { AuditService } from '../modules/audit/service.js';
import { AuthService } from '../modules/auth/service.js';
import { BackupService } from '../modules/backup/service.js';
import { createBlobStore } from '../modules/blobs/blob-store.js';
import { BlobSweeper, blobTempDirs } from '../modules/blobs/sweeper.js';
import { CalendarService } from '../modules/calendars/service.js';
import { ClientService } from '../modules/clients/service.js';
import { DashboardService } from '../modules/dashboard/service.js';
import { AgentIdentities } from '../modules/dispatch/agent-identities.js';
import type { WorkSignal } from '../modules/dispatch/claim-waiters.js';
import { ConnectionWatch } from '../modules/dispatch/connection-watch.js';
import { DispatchService, dispatchTimingsFor } from '../modules/dispatch/dispatch-service.js';
import {
  CHANNELS,
  EnginePublisher,
  messagesOf,
  type AgentChanged,
  type ParametersChanged,
} from '../modules/dispatch/live-events.js';
import { RunControl } from '../modules/dispatch/run-control.js';
import { RunHandout } from '../modules/dispatch/run-handout.js';
import { Settlements } from '../modules/dispatch/settlements.js';
import { WorkAnnouncer } from '../modules/dispatch/work-announcer.js';
import { EnvironmentService } from '../modules/environments/service.js';
import { LiveHub } from '../modules/events/live-hub.js';
import { ActivityService } from '../modules/executions/activity-service.js';
import { ExecutionStatsService } from '../modules/executions/execution-stats-service.js';
import { ExecutionDaysService } from '../modules/execution-days/service.js';
import { RunService } from '../modules/executions/run-service.js';
import { AttendedRunService } from '../modules/attended/service.js';
import { MaintenanceGate } from '../modules/maintenance/gate.js';
import { MaintenanceService } from '../modules/maintenance/service.js';
import type { MetricsService } from '../modules/metrics/service.js';
import { MfaGate } from '../modules/mfa/gate.js';
import { MfaService } from '../modules/mfa/service.js';
import { OidcMappingService } from '../modules/oidc/service.js';
import { OidcSignInService } from '../modules/oidc/sign-in.js';
import { ParameterService } from '../modules/parameters/service.js';
import { ProfileService } from '../modules/profiles/service.js';
import { RetentionService } from '../modules/retention/service.js';
import { RobotFieldService } from '../modules/robot-fields/service.js';
import { RobotVersionService } from '../modules/robot-versions/service.js';
import { PackageKeyService } from '../modules/packages/key-service.js';
import { PackageService } from '../modules/packages/service.js';
import { RobotService } from '../modules/robots/service.js';
import { RunApiService } from '../modules/run-api/run-api-service.js';
import { EngineLoop } from '../modules/scheduler/engine-loop.js';
import { QueueTrigger } from '../modules/scheduler/queue-trigger.js';
import { SchedulingService } from '../modules/schedulings/service.js';
import { SchedulingVmService } from '../modules/schedulings/vm-service.js';
import { StatusItemService } from '../modules/status-items/service.js';
import { TaskService } from '../modules/tasks/service.js';
import { TeamRobotService, TeamUserService } from '../modules/teams/member-service.js';
import { TeamService } from '../modules/teams/service.js';
import { TRIGGER_FIRE_WINDOW_SECONDS, TriggerService } from '../modules/triggers/service.js';
import { UserClientService } from '../modules/user-clients/service.js';
import { UserService } from '../modules/users/service.js';
import { VmService } from '../modules/vms/service.js';
import type { AppOptions } from './app.js';
import type { Services } from './services.js';

/** What `compose` builds: the services, and the loops the app starts and stops with itself. */
export interface Composed {
  services: Services;
  engine: EngineLoop;
  retention: RetentionService;
  /** The background loops, once the app is ready. */
  start(): Promise<void>;
  /** The app is closing: waiting agents get "no work" at once and re-poll elsewhere. */
  closing(): void;
  /** The loops drained and the subscriptions ended, in the reverse of their start. */
  stop(): Promise<void>;
}

/**
 * Every service of the app, each built once from the ones built before it: a service is handed
 * what it calls, in the order that makes that possible, and nothing reaches for one built
 * later. Where two areas need each other, one of them is split (the second factor's gate from
 * the rest of it, the dispatcher's announcements and settlements from its agent calls) so that
 * the order exists.
 */
export function compose(options: AppOptions, log: FastifyBaseLogger, metrics: MetricsService) {
  const { db, secretBox, config } = options;
  const clock = options.clock ?? systemClock;
  const mailer =
    options.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger: log });
  const limiter = new RateLimiter(db, 15 * 60);
  const publisher = new EnginePublisher(options.events, (error) =>
    log.warn({ err: error }, 'could not publish an engine event'),
  );
  const audit = new AuditService(db);

  // Places and things robots run with.
  const vms = new VmService(db, audit);
  // Where alerts and environment connection tests may connect (ALERT_ALLOWED_NETWORKS).
  const outbound = new OutboundPolicy(config.ALERT_ALLOWED_NETWORKS);
  const environments = new EnvironmentService(db, secretBox, audit, outbound);
  const parameters = new ParameterService(db, secretBox, audit, (clientId) =>
    publisher.parametersChanged(clientId),
  );
  const statusItems = new StatusItemService(db, audit);
  // Packages and pictures: in PostgreSQL when the database is, so every instance serves them.
  const blobs = createBlobStore(db, options.dataDir);
  const blobSweeper = new BlobSweeper(db, blobs, blobTempDirs(options.dataDir), { log, clock });

  // People: accounts, memberships, teams, the second factor's gate, sign-in, the factor itself.
  const teams = new TeamService(db, audit);
  const accounts = new AccountService(db);
  const userClients = new UserClientService(db, accounts, teams, audit);
  const accessRequests = new AccessRequestService(db, audit);
  const mfaGate = new MfaGate({ db, clock });
  const auth = new AuthService({
    db,
    mfa: mfaGate,
    clock,
    config,
    mailer,
    limiter,
    logger: log,
    accounts,
    userClients,
    accessRequests,
    audit,
    localLogin: options.oidc?.settings.localLogin ?? true,
  });
  const mfa = new MfaService({ db, secretBox, clock, limiter, audit, accounts, sessions: auth });
  const oidcSignIn = options.oidc
    ? new OidcSignInService({
        db,
        groupsClaim: options.oidc.settings.groupsClaim,
        accounts,
        userClients,
        auth,
        audit,
        logger: log,
      })
    : null;

  // Robots and what hangs off them.
  const robots = new RobotService(db, audit, teams);
  const packages = new PackageService(db, audit);
  const packageKeys = new PackageKeyService(db, audit);
  const schedulings = new SchedulingService(db, audit, robots, vms, clock);
  const robotFields = new RobotFieldService(db, audit, robots);

  // The engine: announcements, the queue trigger that fills scheduling slots, what follows a
  // settled attempt, then the agents' calls and the operators' controls on top of them.
  const announcer = new WorkAnnouncer(db, publisher, clock);
  const queueTrigger = new QueueTrigger(db, announcer, publisher, clock, { log });
  const settlements = new Settlements(publisher, announcer, queueTrigger);
  // Heartbeats are written once a second; an agent back from offline is announced then, and
  // one whose stream was lost is no longer (nor are its runs).
  const timings = options.engine?.timings ?? dispatchTimingsFor(ENGINE_TIMINGS.leaseSeconds);
  const connections = new ConnectionWatch(db, publisher, timings.leaseSeconds);
  const presence = new AgentPresenceService(
    db,
    {
      back: (back) => {
        for (const a of back) {
          publisher.live(a.client, { type: 'agent', rota_nodes_id: a.id, connectivity: 'active' });
        }
      },
      reconnected: (agents) => {
        connections
          .back(agents)
          .catch((error: unknown) =>
            log.error({ err: error }, 'could not clear the lost connection of agents heard again'),
          );
      },
    },
    { log },
  );
  const identities = new AgentIdentities(presence);
  // Which agents may not claim (maintenance), mirrored in memory from the windows' rows.
  const maintenanceGate = new MaintenanceGate();
  const agentDownloads = new AgentDownloadService(agentReleaseDir(config.AGENT_RELEASE_DIR), log);
  const agentUpdates = new AgentUpdateService(db, audit, vms, agentDownloads);
  const dispatch = new DispatchService({
    db,
    logDb: options.logDb,
    presence,
    publish: publisher,
    announcer,
    identities,
    handout: new RunHandout(parameters, publisher, (waited) => metrics.claimed(waited)),
    settlements,
    connections,
    timings,
    updates: agentUpdates,
    log,
    maintenance: maintenanceGate,
  });
  const runControl = new RunControl(db, publisher, settlements);
  const maintenance = new MaintenanceService(
    db,
    audit,
    vms,
    runControl,
    options.events,
    maintenanceGate,
    clock,
  );
  // A window ended: agents parked on this instance claim again at once.
  maintenanceGate.onEnded(() => announcer.waiters.wakeAll());
  const tasks = new TaskService(db, audit, robots, robotFields, clock, (robotIds) =>
    queueTrigger.tasksCreated(robotIds),
  );
  const agents = new AgentService(
    db,
    audit,
    vms,
    (id) => {
      identities.forget([id]);
      publisher.agentChanged(id);
    },
    () => agentUpdates.shippedVersion(),
  );
  const runs = new RunService(db, announcer, audit, robots, vms);
  const attended = new AttendedRunService(db, audit, runs, tasks, clock);
  // Executions counted per day, for the dashboard and the activity totals.
  const executionDays = new ExecutionDaysService(db, { log });

  // The alert outbox: its own loop, like the engine's, on every instance.
  const alertWorker = new AlertWorker(db, {
    clock,
    publicUrl: config.publicUrl,
    mailer,
    secretBox,
    publisher,
    log,
    lookup: options.alerts?.lookup,
    outbound,
    onOutcome: (outcome, channel) => {
      metrics.alertOutcome(outcome, channel);
      options.alerts?.onOutcome?.(outcome, channel);
    },
  });

  // The log streams' outbox: syslog to the security team, woken by its triggers' NOTIFY.
  const logStreamWorker = new LogStreamWorker(db, {
    clock,
    secretBox,
    outbound,
    bus: options.events,
    log,
  });

  const services: Services = {
    auth,
    mfa,
    oidcSignIn,
    oidcMappings: new OidcMappingService(db, userClients, audit),
    users: new UserService(db, blobs, { accounts, userClients, auth, audit }),
    profiles: new ProfileService(db, audit),
    robots,
    packages,
    packageKeys,
    robotVersions: new RobotVersionService(
      db,
      audit,
      robots,
      packages,
      packageKeys,
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
    agentDownloads,
    agentUpdates,
    schedulings,
    calendars: new CalendarService(db, audit, schedulings),
    schedulingVms: new SchedulingVmService(db, audit, vms),
    parameters,
    work: announcer,
    dispatch,
    runControl,
    presence,
    runApi: new RunApiService(db, parameters, environments, tasks, publisher, maintenanceGate),
    runs,
    attended,
    maintenance,
    activity: new ActivityService(db, runControl, audit, undefined, executionDays),
    artifacts: new ArtifactService(db, blobs, options.dataDir),
    dashboard: new DashboardService(
      new ExecutionStatsService(db),
      agents,
      vms,
      statusItems,
      tasks,
      executionDays,
    ),
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
    alerts: new AlertService(db, audit, secretBox, alertWorker, outbound, clock),
    logStreams: new LogStreamService(db, audit, secretBox, logStreamWorker, outbound, clock),
    backups: new BackupService({
      db,
      dataDir: options.dataDir,
      keyFingerprint: secretBox.fingerprint(),
    }),
  };

  const engine = new EngineLoop(
    db,
    { timings: dispatch.timings, announcer, settlements, presence, tasks, publish: publisher },
    {
      intervalMs: options.engine?.intervalMs ?? 1000,
      log,
      queueTrigger,
      clock,
      holdDueSchedulings: (now) => maintenance.holdDueSchedulings(now),
    },
  );
  const retention = new RetentionService(db, { clock, log, pruneThrottles: () => auth.prune() });

  // What other instances say, through NOTIFY; a gap (LISTEN lost or back) voids what was cached.
  const unsubscribe = [
    options.events.subscribe(CHANNELS.work, (payload) => {
      for (const signal of messagesOf<WorkSignal>(payload)) {
        if (signal.i !== publisher.instance) announcer.onWork(signal);
      }
    }),
    options.events.subscribe(CHANNELS.tasks, (payload) => queueTrigger.onNotified(payload)),
    options.events.subscribe(CHANNELS.agents, (payload) =>
      identities.forget(messagesOf<AgentChanged>(payload).map((m) => m.a)),
    ),
    options.events.subscribe(CHANNELS.parameters, (payload) =>
      parameters.forget(messagesOf<ParametersChanged>(payload).map((m) => m.c)),
    ),
    options.events.onGap((listening) => parameters.notifyGap(listening)),
    maintenance.listen((error) => log.error({ err: error }, 'could not read maintenance windows')),
    options.events.onGap((listening) => {
      identities.notifyGap(listening);
      announcer.notifyGap(listening);
    }),
  ];

  const loops = options.engine?.loop !== false;
  const composed: Composed = {
    services,
    engine,
    retention,
    async start() {
      await maintenance.refresh();
      await engine.recover();
      await executionDays.adopt();
      if (loops) {
        executionDays.start();
        engine.start();
        presence.start();
        retention.start();
        alertWorker.start();
        logStreamWorker.start();
      }
      // Whether or not the periodic sweep runs: the leftovers of a crash go before any upload.
      await blobSweeper.removeLeftovers();
      if (options.blobSweep !== false) blobSweeper.start();
    },
    closing() {
      announcer.waiters.closeAll();
    },
    async stop() {
      await engine.stop();
      await presence.stop();
      await retention.stop();
      await executionDays.stop();
      await alertWorker.stop();
      await logStreamWorker.stop();
      await queueTrigger.stop();
      await blobSweeper.stop();
      for (const stop of unsubscribe) stop();
      services.liveHub.close();
      await auth.drain();
    },
  };
  return composed;
}
