import type { AuthService } from '../modules/auth/service.js';
import type { MfaService } from '../modules/mfa/service.js';
import type { OidcMappingService } from '../modules/oidc/service.js';
import type { OidcSignInService } from '../modules/oidc/sign-in.js';
import type { WorkAnnouncer } from '../modules/dispatch/work-announcer.js';
import type { RunControl } from '../modules/dispatch/run-control.js';
import type { ProfileService } from '../modules/profiles/service.js';
import type { UserService } from '../modules/users/service.js';
import type { RobotService } from '../modules/robots/service.js';
import type { RobotVersionService } from '../modules/robot-versions/service.js';
import type { PackageKeyService } from '../modules/packages/key-service.js';
import type { PackageService } from '../modules/packages/service.js';
import type { RobotFieldService } from '../modules/robot-fields/service.js';
import type { TaskService } from '../modules/tasks/service.js';
import type { VmService } from '../modules/vms/service.js';
import type { AgentService } from '../modules/agents/service.js';
import type { AgentUpdateService } from '../modules/agents/updates.js';
import type { CalendarService } from '../modules/calendars/service.js';
import type { SchedulingService } from '../modules/schedulings/service.js';
import type { SchedulingVmService } from '../modules/schedulings/vm-service.js';
import type { ParameterService } from '../modules/parameters/service.js';
import type { ActivityService } from '../modules/executions/activity-service.js';
import type { ArtifactService } from '../modules/artifacts/service.js';
import type { DashboardService } from '../modules/dashboard/service.js';
import type { DispatchService } from '../modules/dispatch/dispatch-service.js';
import type { AgentPresenceService } from '../modules/agents/presence-service.js';
import type { RunApiService } from '../modules/run-api/run-api-service.js';
import type { RunService } from '../modules/executions/run-service.js';
import type { AttendedRunService } from '../modules/attended/service.js';
import type { MaintenanceService } from '../modules/maintenance/service.js';
import type { LiveHub } from '../modules/events/live-hub.js';
import type { AuditService } from '../modules/audit/service.js';
import type { UserClientService } from '../modules/user-clients/service.js';
import type { ClientService } from '../modules/clients/service.js';
import type { AccessRequestService } from '../modules/users/access-request-service.js';
import type { EnvironmentService } from '../modules/environments/service.js';
import type { StatusItemService } from '../modules/status-items/service.js';
import type { TeamService } from '../modules/teams/service.js';
import type { TeamRobotService, TeamUserService } from '../modules/teams/member-service.js';
import type { BlobStore } from '../modules/blobs/blob-store.js';
import type { BlobSweeper } from '../modules/blobs/sweeper.js';
import type { TriggerService } from '../modules/triggers/service.js';
import type { ApiKeyService } from '../modules/api-keys/service.js';
import type { AlertService } from '../modules/alerts/service.js';
import type { LogStreamService } from '../modules/log-streams/service.js';
import type { AgentDownloadService } from '../modules/agent-download/service.js';
import type { BackupService } from '../modules/backup/service.js';

/** The app's services, built once by http/compose.ts: each route plugin is handed the ones it uses. */
export interface Services {
  auth: AuthService;
  /** The second factor: enrolment, sign-in challenges, recovery codes, an administrator's reset. */
  mfa: MfaService;
  /** Single sign-on's accounts; null when no OpenID provider is configured. */
  oidcSignIn: OidcSignInService | null;
  oidcMappings: OidcMappingService;
  users: UserService;
  profiles: ProfileService;
  robots: RobotService;
  packages: PackageService;
  packageKeys: PackageKeyService;
  robotVersions: RobotVersionService;
  /** Where packages and pictures live (disk or PostgreSQL, chosen at boot). */
  blobs: BlobStore;
  blobSweeper: BlobSweeper;
  robotFields: RobotFieldService;
  tasks: TaskService;
  vms: VmService;
  agents: AgentService;
  /** The packaged agent executables (AGENT_RELEASE_DIR) the console offers for download. */
  agentDownloads: AgentDownloadService;
  agentUpdates: AgentUpdateService;
  schedulings: SchedulingService;
  calendars: CalendarService;
  schedulingVms: SchedulingVmService;
  parameters: ParameterService;
  /** Tells waiting agents (here and on other instances) and consoles that work is queued. */
  work: WorkAnnouncer;
  dispatch: DispatchService;
  /** An operator's cancel, stop and "mark as failed" of a run. */
  runControl: RunControl;
  /** Agents heard: `presence.flush()` writes them (each second; tests call it directly). */
  presence: AgentPresenceService;
  runs: RunService;
  /** Runs a person starts on their own machine ("My robots", the agent's `run` command). */
  attended: AttendedRunService;
  maintenance: MaintenanceService;
  runApi: RunApiService;
  activity: ActivityService;
  artifacts: ArtifactService;
  dashboard: DashboardService;
  liveHub: LiveHub;
  audit: AuditService;
  userClients: UserClientService;
  clients: ClientService;
  accessRequests: AccessRequestService;
  environments: EnvironmentService;
  statusItems: StatusItemService;
  teams: TeamService;
  teamRobots: TeamRobotService;
  teamUsers: TeamUserService;
  triggers: TriggerService;
  apiKeys: ApiKeyService;
  /** Alert rules, their log, the bell; `alerts.worker.tick()` drives the outbox in tests. */
  alerts: AlertService;
  /** Syslog destinations of the client; `logStreams.worker.tick()` drives their outbox in tests. */
  logStreams: LogStreamService;
  /** Backups of the embedded database (a server on PostgreSQL answers 409). */
  backups: BackupService;
}
