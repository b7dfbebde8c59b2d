import { sql } from 'drizzle-orm';
import type { RobotTask, RobotTaskFinish } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { systemScope } from '../../lib/tenant-scope.js';
import { hashToken } from '../../lib/tokens.js';
import type { ParameterService, RunParameter } from '../parameters/service.js';
import type { EnvironmentService } from '../environments/service.js';
import type { RunEnvironment } from '@rota/contract';
import { recordStaleCall } from './execution-repository.js';
import { rowsOf } from './sql-rows.js';

/** The run a robot API call speaks for: valid only while that attempt is processing. */
export interface RunIdentity {
  rota_executions_id: number;
  rota_clients_id: number;
  rota_robots_id: number;
}

/** The robot's own API during a run (ROBOT_API_BASE): its tasks and its parameters. */
export class RunApiService {
  constructor(
    private readonly db: Db,
    private readonly parameters: ParameterService,
    private readonly environments: EnvironmentService,
  ) {}

  async authenticate(token: string): Promise<RunIdentity> {
    const [run] = await rowsOf<RunIdentity>(
      this.db,
      sql`select rota_executions_id, rota_clients_id, rota_robots_id from rota_executions
           where run_token_hash = ${hashToken(token)} and status = 'processing'`,
    );
    if (run) return run;
    // The token of an earlier attempt (fencing): its run was handed on, or has ended. Its
    // call is counted on that attempt and refused, never applied.
    if (await recordStaleCall(this.db, hashToken(token))) throw new AppError('stale_attempt');
    throw new AppError('unauthorized');
  }

  /** The robot's next pending task, now held by this run; SKIP LOCKED: no two runs get one. */
  async nextTask(run: RunIdentity): Promise<RobotTask | null> {
    const [task] = await rowsOf<{
      rota_tasks_id: number;
      label: string | null;
      data: Record<string, unknown>;
      priority: number;
      expiration_date: Date | string;
      attempts: number;
    }>(
      this.db,
      sql`update rota_tasks t
             set status = 'processing', attempts = t.attempts + 1,
                 rota_executions_id = ${run.rota_executions_id}, business_error = null,
                 updated_at = now()
           where t.rota_tasks_id = (
                   select n.rota_tasks_id from rota_tasks n
                    where n.rota_robots_id = ${run.rota_robots_id}
                      and n.rota_clients_id = ${run.rota_clients_id}
                      and n.status = 'pending' and n.expiration_date > now()
                    order by n.priority desc nulls last, n.created_at, n.rota_tasks_id
                    limit 1
                    for update skip locked)
          returning t.rota_tasks_id, t.label, t.data, t.priority, t.expiration_date, t.attempts`,
    );
    if (!task) return null;
    return { ...task, expiration_date: new Date(task.expiration_date).toISOString() };
  }

  async finishTask(run: RunIdentity, input: RobotTaskFinish): Promise<void> {
    const updated = await rowsOf<{ id: number }>(
      this.db,
      sql`update rota_tasks
             set status = ${input.status},
                 business_error = ${input.status === 'business_error' ? (input.business_error ?? null) : null},
                 rota_executions_id = null, updated_at = now()
           where rota_tasks_id = ${input.id} and rota_executions_id = ${run.rota_executions_id}
             and status = 'processing'
          returning rota_tasks_id as id`,
    );
    if (updated.length === 0) {
      throw new AppError('conflict', [{ field: 'id', message: 'task_not_held' }]);
    }
  }

  environmentsOf(run: RunIdentity): Promise<RunEnvironment[]> {
    return this.environments.readForRun(systemScope(run.rota_clients_id));
  }

  parametersOf(run: RunIdentity): Promise<RunParameter[]> {
    return this.parameters.readForRun(systemScope(run.rota_clients_id));
  }
}
