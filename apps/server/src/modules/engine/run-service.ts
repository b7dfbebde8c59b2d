import { sql } from 'drizzle-orm';
import { RUN_NOW_DEFAULTS, type RobotRun } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { DispatchService } from './dispatch-service.js';
import { rowsOf } from './sql-rows.js';

const robotInactive = () => new AppError('conflict', [{ field: 'id', message: 'robot_inactive' }]);

/** "Run now", from a robot or from a scheduling: queues one execution. */
export class RunService {
  constructor(
    private readonly db: Db,
    private readonly dispatch: DispatchService,
  ) {}

  async runRobot(scope: TenantScope, actor: Actor, input: RobotRun): Promise<number> {
    const [robot] = await rowsOf<{ active: boolean }>(
      this.db,
      sql`select active from rota_robots
           where rota_robots_id = ${input.id} and rota_clients_id = ${scope.clientId}`,
    );
    // A robot the caller's teams hide is as absent as another client's.
    if (!robot || !scope.seesRobot(input.id)) throw notFound();
    if (!robot.active) throw robotInactive();
    if (input.rota_vms_id) {
      const [vm] = await rowsOf<{ id: number }>(
        this.db,
        sql`select rota_vms_id as id from rota_vms
             where rota_vms_id = ${input.rota_vms_id} and rota_clients_id = ${scope.clientId}`,
      );
      if (!vm) throw invalidField('rota_vms_id', 'vm_not_found');
    }
    return this.dispatch.queue({
      rota_clients_id: scope.clientId,
      rota_robots_id: input.id,
      rota_schedulings_id: null,
      vm_ids: input.rota_vms_id ? [input.rota_vms_id] : null,
      trigger: 'manual',
      priority: input.priority ?? RUN_NOW_DEFAULTS.priority,
      timeout_seconds: (input.timeout_minutes ?? RUN_NOW_DEFAULTS.timeout_minutes) * 60,
      retries: input.retries ?? RUN_NOW_DEFAULTS.retries,
      sleep_seconds: 0,
      created_by: actor.user.users_id,
    });
  }

  /** A scheduling's run, now: its robot, settings and VMs. */
  async runScheduling(scope: TenantScope, actor: Actor, id: number): Promise<number> {
    const [scheduling] = await rowsOf<{
      rota_robots_id: number;
      priority: number;
      timeout_minutes: number;
      retries: number;
      sleep: number;
      deleted: boolean;
      robot_active: boolean;
      vm_ids: number[] | null;
    }>(
      this.db,
      sql`select s.rota_robots_id, s.priority, s.timeout_minutes, s.retries, s.sleep,
                 s.deleted_at is not null as deleted, r.active as robot_active,
                 (select nullif(array_agg(sv.rota_vms_id order by sv.rota_vms_id), '{}')
                    from rota_scheduling_vms sv
                   where sv.rota_schedulings_id = s.rota_schedulings_id) as vm_ids
            from rota_schedulings s
            join rota_robots r on r.rota_robots_id = s.rota_robots_id
           where s.rota_schedulings_id = ${id} and s.rota_clients_id = ${scope.clientId}`,
    );
    if (!scheduling || !scope.seesRobot(scheduling.rota_robots_id)) throw notFound();
    if (scheduling.deleted) {
      throw new AppError('conflict', [{ field: 'id', message: 'scheduling_deleted' }]);
    }
    if (!scheduling.robot_active) throw robotInactive();
    return this.dispatch.queue({
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
    });
  }
}
