import {
  hasPermissions,
  MY_ROBOTS_LIMIT,
  TASK_DEFAULT_PRIORITY,
  type AgentAttendedRun,
  type AttendedRun,
  type MyRobots,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, invalidField, type FieldIssue } from '../../lib/errors.js';
import { systemScope, type TenantScope } from '../../lib/tenant-scope.js';
import { connectivityOf } from '../agents/connectivity.js';
import type { AgentIdentity } from '../dispatch/dispatch-service.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { NewExecution } from '../executions/row-statements.js';
import type { RunService } from '../executions/run-service.js';
import type { TaskService } from '../tasks/service.js';
import {
  attendedAgentsOf,
  grantsOf,
  robotNamed,
  runnableRobots,
  type AttendedAgentRow,
} from './repository.js';

/** A run's own task lives as long as a trigger's: thirty days unless taken. */
const TASK_EXPIRATION_MS = 30 * 24 * 60 * 60 * 1000;

/** What starting a run from the agent's command line needs: the agent says who it serves. */
type RunningAgent = Pick<
  AgentIdentity,
  'rota_nodes_id' | 'rota_clients_id' | 'rota_vms_id' | 'name' | 'labels' | 'attended_users_id'
>;

const carries = (agent: { labels: readonly string[] }, needed: readonly string[]) =>
  needed.every((label) => agent.labels.includes(label));

/**
 * Attended runs: a person starts a robot on their own machine (the console's "My robots" or the
 * agent's `run` command), and only the agent that person attends takes it.
 */
export class AttendedRunService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly runs: RunService,
    private readonly tasks: TaskService,
    private readonly clock: Clock,
  ) {}

  /** The caller's attended agents and the robots they may run on them. */
  async myRobots(scope: TenantScope, userId: number, search?: string): Promise<MyRobots> {
    const agents = await attendedAgentsOf(this.db, scope, userId);
    const rows = await runnableRobots(
      this.db,
      scope,
      agents.map((agent) => agent.labels),
      search,
      MY_ROBOTS_LIMIT,
    );
    return {
      agents: agents.map(({ labels: _labels, active, ...agent }) => ({
        ...agent,
        connectivity: connectivityOf(active),
      })),
      robots: rows.slice(0, MY_ROBOTS_LIMIT).map((robot) => ({
        ...robot,
        agent_ids: agents
          .filter((agent) => carries(agent, robot.required_labels))
          .map((agent) => agent.rota_nodes_id),
      })),
      truncated: rows.length > MY_ROBOTS_LIMIT,
    };
  }

  /** The console: the caller's run of a robot on one of their attended agents. */
  async run(
    scope: TenantScope,
    userId: number,
    input: AttendedRun,
    author: AuditAuthor,
  ): Promise<number> {
    // The robot first: another client's (or a hidden) robot is a 404 whoever asks.
    const run = await this.runs.attendedRun(scope, input.id, userId);
    const agent = chooseAgent(await attendedAgentsOf(this.db, scope, userId), input.rota_nodes_id);
    return this.queue(scope, run, agent, input.task_data, 'id', author);
  }

  /**
   * The agent's command line: its user starts a robot on it. The user must still be a member of
   * the agent's client allowed to run robots, and see this one through their teams.
   */
  async runFromAgent(
    agent: RunningAgent,
    input: AgentAttendedRun,
    request: { ip: string; requestId: string },
  ): Promise<number> {
    if (agent.attended_users_id === null) {
      throw new AppError('conflict', [{ field: 'robot', message: 'agent_not_attended' }]);
    }
    const grants = await grantsOf(this.db, agent.rota_clients_id, agent.attended_users_id);
    if (!grants || !hasPermissions(grants.permissions, ['ROBOS.UPDATE'])) {
      throw new AppError('forbidden');
    }
    const scope = systemScope(agent.rota_clients_id);
    const robotId = await robotNamed(this.db, scope, input.robot);
    if (
      robotId === undefined ||
      (grants.team_robot_ids && !grants.team_robot_ids.includes(robotId))
    ) {
      throw invalidField('robot', 'robot_name_unknown');
    }
    const author: AuditAuthor = {
      user: grants.user,
      clientId: agent.rota_clients_id,
      ip: request.ip,
      requestId: request.requestId,
    };
    const run = await this.runs.attendedRun(scope, robotId, agent.attended_users_id);
    return this.queue(scope, run, agent, input.task_data, 'robot', author);
  }

  /** The run on `agent`'s VM, with its own task when there is data, and its audit record. */
  private async queue(
    scope: TenantScope,
    attended: NewExecution,
    agent: Pick<AttendedAgentRow, 'rota_nodes_id' | 'rota_vms_id' | 'labels'>,
    taskData: Record<string, unknown> | undefined,
    robotField: string,
    author: AuditAuthor,
  ): Promise<number> {
    const run: NewExecution = { ...attended, vm_ids: [agent.rota_vms_id] };
    const robotId = run.rota_robots_id;
    if (!carries(agent, run.labels)) throw invalidField(robotField, 'agent_lacks_robot_labels');
    // Checked before the transaction opens: on the embedded database a query outside an open
    // transaction would wait for it.
    const tasks =
      taskData === undefined
        ? []
        : await this.checkedTask(scope, robotId, taskData, this.clock.now());
    const id = await this.db.transaction(async (tx) => {
      const executionId = await this.runs.queueIn(tx, run);
      const taskIds = await this.tasks.insertChecked(tx, scope, tasks, executionId);
      await this.audit.write(tx, author, {
        action: 'run',
        entity: 'robot',
        entity_id: robotId,
        after: {
          execution_id: executionId,
          attended_by: run.attended_by,
          rota_nodes_id: agent.rota_nodes_id,
          task_ids: taskIds,
        },
        clientId: scope.clientId,
      });
      return executionId;
    });
    this.runs.announce(run, id);
    return id;
  }

  /** The run's data as a task of the robot, checked against its fields (`task_data.<field>`). */
  private async checkedTask(
    scope: TenantScope,
    robotId: number,
    data: Record<string, unknown>,
    now: Date,
  ) {
    try {
      return await this.tasks.checkMany(
        scope,
        robotId,
        [
          {
            data,
            priority: TASK_DEFAULT_PRIORITY,
            expiration_date: new Date(now.getTime() + TASK_EXPIRATION_MS).toISOString(),
          },
        ],
        'task_data',
      );
    } catch (error) {
      if (!(error instanceof AppError) || !error.fieldErrors) throw error;
      const issues: FieldIssue[] = error.fieldErrors.map((issue) => ({
        ...issue,
        field: issue.field.replace(/^task_data\.0\.data\b/, 'task_data'),
      }));
      throw new AppError(error.code, issues);
    }
  }
}

/** The agent a console run goes to: the one asked for, else the only one, else the only active. */
function chooseAgent(agents: AttendedAgentRow[], wanted: number | undefined): AttendedAgentRow {
  if (wanted !== undefined) {
    const agent = agents.find((a) => a.rota_nodes_id === wanted);
    if (!agent) throw invalidField('rota_nodes_id', 'attended_agent_unknown');
    return agent;
  }
  if (agents.length === 0) {
    throw new AppError('conflict', [{ field: 'rota_nodes_id', message: 'no_attended_agent' }]);
  }
  const active = agents.filter((a) => a.active);
  const only = agents.length === 1 ? agents[0] : active.length === 1 ? active[0] : undefined;
  if (!only) throw invalidField('rota_nodes_id', 'attended_agent_required');
  return only;
}
