import { normalizeLabels, RUN_NOW_DEFAULTS, type RobotRun } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { WorkAnnouncer } from '../dispatch/work-announcer.js';
import { insertExecution, type NewExecution } from './row-statements.js';
import type { RobotService } from '../robots/service.js';
import type { VmService } from '../vms/service.js';
import { schedulingToRun } from './run-now-repository.js';

const robotInactive = () => new AppError('conflict', [{ field: 'id', message: 'robot_inactive' }]);

/**
 * A run of one robot with Run now's defaults (any VM, by hand, no one attending) and what
 * `given` says otherwise.
 */
function robotRun(
  scope: TenantScope,
  robotId: number,
  given: Partial<NewExecution> & Pick<NewExecution, 'labels'>,
): NewExecution {
  return {
    rota_clients_id: scope.clientId,
    rota_robots_id: robotId,
    rota_schedulings_id: null,
    vm_ids: null,
    trigger: 'manual',
    priority: RUN_NOW_DEFAULTS.priority,
    timeout_seconds: RUN_NOW_DEFAULTS.timeout_minutes * 60,
    retries: RUN_NOW_DEFAULTS.retries,
    sleep_seconds: 0,
    created_by: null,
    ...given,
  };
}

/** "Run now", from a robot or from a scheduling: queues one execution. */
export class RunService {
  constructor(
    private readonly db: Db,
    private readonly announcer: WorkAnnouncer,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
    private readonly vms: VmService,
  ) {}

  /** The run and its audit record in one transaction; agents hear of it once committed. */
  private async queueRecorded(
    run: NewExecution,
    author: AuditAuthor,
    entity: 'robot' | 'scheduling',
    entityId: number,
    details: object,
  ): Promise<number> {
    const id = await this.audit.recorded(
      author,
      {
        action: 'run',
        entity,
        entity_id: entityId,
        after: async (_tx, executionId: number) => ({ ...details, execution_id: executionId }),
      },
      (tx) => insertExecution(tx, run),
    );
    this.announcer.queued(run, id);
    return id;
  }

  async runRobot(
    scope: TenantScope,
    actor: Actor,
    input: RobotRun,
    author: AuditAuthor,
  ): Promise<number> {
    const robot = await this.runnableRobot(scope, input.id, input.rota_vms_id);
    const run = robotRun(scope, input.id, {
      vm_ids: input.rota_vms_id ? [input.rota_vms_id] : null,
      priority: input.priority ?? RUN_NOW_DEFAULTS.priority,
      timeout_seconds: (input.timeout_minutes ?? RUN_NOW_DEFAULTS.timeout_minutes) * 60,
      retries: input.retries ?? RUN_NOW_DEFAULTS.retries,
      created_by: actor.user.users_id,
      labels: normalizeLabels([...robot.required_labels, ...(input.labels ?? [])]),
    });
    return this.queueRecorded(run, author, 'robot', input.id, input);
  }

  /**
   * A run trigger's run, checked as Run now checks one (a VM of another client is a
   * field error). Answers the execution for `queueIn`, in the caller's transaction (with the
   * fire's tasks); `announce` it once committed.
   */
  async triggerRun(
    scope: TenantScope,
    robotId: number,
    input: { priority?: number | undefined; rota_vms_id?: number | undefined },
  ): Promise<NewExecution> {
    const robot = await this.runnableRobot(scope, robotId, input.rota_vms_id);
    return robotRun(scope, robotId, {
      vm_ids: input.rota_vms_id ? [input.rota_vms_id] : null,
      trigger: 'api',
      priority: input.priority ?? RUN_NOW_DEFAULTS.priority,
      labels: robot.required_labels,
    });
  }

  /**
   * An attended run of the robot by `usersId`, taken only by an agent that user attends; the
   * caller pins it to that agent's VM. Answers the execution for `queueIn`; `announce` it once
   * committed.
   */
  async attendedRun(scope: TenantScope, robotId: number, usersId: number): Promise<NewExecution> {
    const robot = await this.runnableRobot(scope, robotId);
    return robotRun(scope, robotId, {
      created_by: usersId,
      attended_by: usersId,
      labels: robot.required_labels,
    });
  }

  /**
   * The robot, active, and the VM asked for, of the scope's client. A robot the caller's teams
   * hide is as absent as another client's (404); a VM of another client is a field error.
   */
  private async runnableRobot(scope: TenantScope, robotId: number, vmId?: number | null) {
    const robot = await this.robots.show(scope, robotId);
    if (!robot.active) throw robotInactive();
    if (vmId && !(await this.vms.exists(scope, vmId))) {
      throw invalidField('rota_vms_id', 'vm_not_found');
    }
    return robot;
  }

  queueIn(tx: Db, run: NewExecution): Promise<number> {
    return insertExecution(tx, run);
  }

  /** Agents hear of a run `queueIn` wrote, once its transaction committed. */
  announce(run: NewExecution, id: number): void {
    this.announcer.queued(run, id);
  }

  /** A scheduling's run, now: its robot, settings and VMs. */
  async runScheduling(
    scope: TenantScope,
    actor: Actor,
    id: number,
    author: AuditAuthor,
  ): Promise<number> {
    const scheduling = await schedulingToRun(this.db, scope, id);
    if (!scheduling || !scope.seesRobot(scheduling.rota_robots_id)) throw notFound();
    if (scheduling.deleted) {
      throw new AppError('conflict', [{ field: 'id', message: 'scheduling_deleted' }]);
    }
    if (!scheduling.robot_active) throw robotInactive();
    const run: NewExecution = {
      rota_clients_id: scope.clientId,
      rota_robots_id: scheduling.rota_robots_id,
      rota_schedulings_id: id,
      vm_ids: scheduling.vm_ids,
      trigger: 'manual',
      priority: scheduling.priority,
      timeout_seconds: scheduling.timeout_minutes * 60,
      retries: scheduling.retries,
      sleep_seconds: scheduling.sleep,
      created_by: actor.user.users_id,
      labels: normalizeLabels([...scheduling.required_labels, ...scheduling.labels]),
    };
    return this.queueRecorded(run, author, 'scheduling', id, {});
  }
}
