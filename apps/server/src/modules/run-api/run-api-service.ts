import type { RobotProgress, RobotTask, RobotTaskFinish } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { systemScope } from '../../lib/tenant-scope.js';
import { hashToken } from '../../lib/tokens.js';
import type { ParameterService, RunParameter } from '../parameters/service.js';
import type { EnvironmentService } from '../environments/service.js';
import type { RunEnvironment } from '@rota/contract';
import type { TaskService } from '../tasks/service.js';
import {
  findRunByToken,
  recordProgress,
  recordStaleCall,
  stopRequestedOf,
} from '../executions/run-statements.js';
import type { EnginePublisher } from '../dispatch/live-events.js';

/** The run a robot API call speaks for: valid only while that attempt is processing. */
export interface RunIdentity {
  rota_executions_id: number;
  rota_clients_id: number;
  rota_robots_id: number;
  /** An attended run takes the tasks created with it first. */
  attended: boolean;
}

/** The robot's own API during a run (/api/rota/run/api/v1): its tasks, parameters and environments. */
export class RunApiService {
  constructor(
    private readonly db: Db,
    private readonly parameters: ParameterService,
    private readonly environments: EnvironmentService,
    private readonly tasks: TaskService,
    /** Consoles hear of a stall flag cleared by a progress call. */
    private readonly publish?: EnginePublisher,
    /** Whether a maintenance window covers a VM (maintenance/gate.ts). */
    private readonly maintenance?: { blocks(vmId: number): boolean },
  ) {}

  /** What the robot says of its progress; activity: clears a stall flag (and says so, live). */
  async progress(run: RunIdentity, input: RobotProgress): Promise<void> {
    const row = await recordProgress(this.db, run.rota_executions_id, input);
    if (!row) return;
    this.publish?.live(run.rota_clients_id, {
      type: 'progress',
      execution_id: run.rota_executions_id,
      rota_robots_id: run.rota_robots_id,
      percent: row.progress_percent,
    });
    if (row.was_stalled) {
      this.publish?.live(run.rota_clients_id, {
        type: 'execution',
        execution_id: run.rota_executions_id,
        rota_robots_id: run.rota_robots_id,
        status: 'processing',
        stalled: false,
      });
    }
  }

  async authenticate(token: string): Promise<RunIdentity> {
    const run = await findRunByToken(this.db, hashToken(token));
    if (run) return run;
    // The token of an earlier attempt (fencing): its run was handed on, or has ended. Its
    // call is counted on that attempt and refused, never applied.
    if (await recordStaleCall(this.db, hashToken(token))) throw new AppError('stale_attempt');
    throw new AppError('unauthorized');
  }

  /** The robot's next pending task, now held by this run; SKIP LOCKED: no two runs get one. */
  nextTask(run: RunIdentity): Promise<RobotTask | null> {
    return this.tasks.nextForRun(systemScope(run.rota_clients_id), run);
  }

  finishTask(run: RunIdentity, input: RobotTaskFinish): Promise<void> {
    return this.tasks.finishForRun(systemScope(run.rota_clients_id), run.rota_executions_id, input);
  }

  /** Whether the console asked this run to stop (a graceful stop or a cancel). */
  async statusOf(run: RunIdentity): Promise<{ stop_requested: boolean; maintenance?: true }> {
    const { stop, vmId } = await stopRequestedOf(this.db, run.rota_executions_id);
    const maintenance = vmId !== null && (this.maintenance?.blocks(vmId) ?? false);
    return maintenance ? { stop_requested: stop, maintenance } : { stop_requested: stop };
  }

  environmentsOf(run: RunIdentity): Promise<RunEnvironment[]> {
    return this.environments.readForRun(systemScope(run.rota_clients_id));
  }

  parametersOf(run: RunIdentity): Promise<RunParameter[]> {
    return this.parameters.readForRun(systemScope(run.rota_clients_id));
  }
}
