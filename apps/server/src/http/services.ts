import type { AuthService } from '../modules/auth/service.js';
import type { ProfileService } from '../modules/profiles/service.js';
import type { UserService } from '../modules/users/service.js';
import type { Db } from '../db/client.js';
import type { RobotService } from '../modules/robots/service.js';
import type { RobotVersionService } from '../modules/robot-versions/service.js';
import type { RobotFieldService } from '../modules/robot-fields/service.js';
import type { TaskService } from '../modules/tasks/service.js';
import type { VmService } from '../modules/vms/service.js';
import type { AgentService } from '../modules/agents/service.js';
import type { SchedulingService } from '../modules/schedulings/service.js';
import type { SchedulingVmService } from '../modules/schedulings/vm-service.js';
import type { ParameterService } from '../modules/parameters/service.js';
import type { ActivityService } from '../modules/activity/service.js';
import type { DashboardService } from '../modules/dashboard/service.js';
import type { DispatchService } from '../modules/engine/dispatch-service.js';
import type { RunApiService } from '../modules/engine/run-api-service.js';
import type { RunService } from '../modules/engine/run-service.js';
import type { LiveHub } from '../modules/events/live-hub.js';
import type { AuditService } from '../modules/audit/service.js';

/** What route modules are handed; built once per app in http/app.ts. */
export interface Services {
  db: Db;
  auth: AuthService;
  users: UserService;
  profiles: ProfileService;
  robots: RobotService;
  robotVersions: RobotVersionService;
  robotFields: RobotFieldService;
  tasks: TaskService;
  vms: VmService;
  agents: AgentService;
  schedulings: SchedulingService;
  schedulingVms: SchedulingVmService;
  parameters: ParameterService;
  dispatch: DispatchService;
  runs: RunService;
  runApi: RunApiService;
  activity: ActivityService;
  dashboard: DashboardService;
  liveHub: LiveHub;
  audit: AuditService;
}
