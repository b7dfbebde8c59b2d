import {
  type RobotTask,
  type RobotTaskFinish,
  expirationInstant,
  validateTaskData,
  type IdsBody,
  type ListResponse,
  type RobotFieldType,
  type Task,
  type TaskCreate,
  type TaskHistoryEntry,
  type ExecutionStatus,
  type TaskListQuery,
  type TaskSlaState,
  type TaskStatus,
  type TaskUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { RobotFieldService } from '../robot-fields/service.js';
import type { RobotService } from '../robots/service.js';
import { AppError, notFound, type FieldIssue } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { assertDateRange } from '../../lib/date-range.js';
import {
  deleteTasks,
  findTask,
  insertTask,
  listTasks,
  requeueTasks,
  updateTask,
  type TaskRow,
  type TaskValues,
  expireDueTasks,
  finishHeldTask,
  markSlaTransitions,
  slaCountsPerRobot,
  takeNextTask,
  taskHistoryRows,
  type TaskHistoryRow,
} from './repository.js';

export const toTask = (row: TaskRow): Task => ({
  rota_tasks_id: row.rota_tasks_id,
  rota_robots_id: row.rota_robots_id,
  rota_robots_name: row.rota_robots_name,
  label: row.label,
  data: row.data,
  priority: row.priority,
  expiration_date: iso(row.expiration_date),
  status: row.status as TaskStatus,
  business_error: row.business_error,
  attempts: row.attempts,
  deadline: isoOrNull(row.deadline),
  postpone_until: isoOrNull(row.postpone_until),
  sla_state: row.sla_state as TaskSlaState | null,
  finished_at: isoOrNull(row.finished_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const toHistoryEntry = (row: TaskHistoryRow): TaskHistoryEntry => ({
  rota_task_history_id: row.rota_task_history_id,
  status: row.status as TaskStatus,
  at: iso(row.at),
  attempts: row.attempts,
  business_error: row.business_error,
  rota_executions_id: row.rota_executions_id,
  execution:
    row.execution_status === null
      ? null
      : {
          status: row.execution_status as ExecutionStatus,
          rota_nodes_name: row.rota_nodes_name,
          started_at: isoOrNull(row.started_at),
          ended_at: isoOrNull(row.ended_at),
        },
});

/** One of the tasks `checkMany` checks: `create`'s fields but the robot and postponement. */
export type ManyTask = Pick<TaskCreate, 'data' | 'priority' | 'expiration_date'> &
  Partial<Pick<TaskCreate, 'label' | 'deadline'>>;

/** A task checked by `checkMany`, ready to insert. */
export type CheckedTask = Required<TaskValues> & { rota_robots_id: number };

const pastExpiration = (): FieldIssue => ({
  field: 'expiration_date',
  message: 'expiration_in_past',
});

export class TaskService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
    private readonly fields: RobotFieldService,
    /** SLA states, postponements and finish times read this clock (tests move it). */
    private readonly clock: Clock,
    /** After tasks were committed: the queue trigger starts their robots. */
    private readonly onTasksCreated: (robotIds: number[]) => void = () => {},
  ) {}

  list(scope: TenantScope, query: TaskListQuery): Promise<ListResponse<Task>> {
    assertDateRange(query);
    return listTasks(this.db, scope, query, this.clock.now(), toTask);
  }

  show(scope: TenantScope, id: number): Promise<Task> {
    return this.showIn(this.db, scope, id);
  }

  /** The task's status and holder changes, oldest first; 404 as `show` for another's task. */
  async history(scope: TenantScope, id: number): Promise<TaskHistoryEntry[]> {
    await this.show(scope, id);
    const rows = await taskHistoryRows(this.db, scope, id);
    return rows.map(toHistoryEntry);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Task> {
    const row = await findTask(db, scope, id, this.clock.now());
    if (!row) throw notFound();
    return toTask(row);
  }

  /** `data` against the robot's fields, as `data.<name>` issues. */
  private async dataIssues(scope: TenantScope, robotId: number, data: Record<string, unknown>) {
    const fields = await this.fields.fieldsOfRobot(scope, robotId);
    return validateTaskData(
      fields.map((f) => ({ name: f.name, type: f.type as RobotFieldType, required: f.required })),
      data,
    );
  }

  async create(scope: TenantScope, input: TaskCreate, author: AuditAuthor): Promise<Task> {
    const robot = await this.robots.taskSettings(scope, input.rota_robots_id);
    if (!robot) throw notFound();
    const issues: FieldIssue[] = await this.dataIssues(scope, input.rota_robots_id, input.data);
    const expiration = expirationInstant(input.expiration_date);
    if (expiration <= new Date()) issues.push(pastExpiration());
    if (issues.length > 0) throw new AppError('invalid_input', issues);
    // No deadline given: the robot's SLA from now (the task's creation), when it has one.
    const deadline = input.deadline
      ? new Date(input.deadline)
      : robot.task_sla_minutes !== null
        ? new Date(this.clock.now().getTime() + robot.task_sla_minutes * 60_000)
        : null;
    const task = await this.audit.recorded(
      author,
      auditOf.created('task', (task: Task) => task.rota_tasks_id),
      async (tx) => {
        const id = await insertTask(tx, scope, {
          rota_robots_id: input.rota_robots_id,
          label: input.label,
          data: input.data,
          priority: input.priority,
          expiration_date: expiration,
          deadline,
          postpone_until: input.postpone_until ? new Date(input.postpone_until) : null,
        });
        return this.showIn(tx, scope, id);
      },
    );
    this.onTasksCreated([task.rota_robots_id]);
    return task;
  }

  /**
   * Tasks another system hands one robot at once (a run trigger's fire), checked as
   * `create` checks one; issues name `<field>.<index>.…`. Answers the rows `insertChecked` writes
   * in the caller's transaction (checked first: on the embedded database a query outside an open
   * transaction would wait for it).
   */
  async checkMany(
    scope: TenantScope,
    robotId: number,
    inputs: readonly ManyTask[],
    field: string,
  ): Promise<CheckedTask[]> {
    const robot = await this.robots.taskSettings(scope, robotId);
    if (!robot) throw notFound();
    const issues: FieldIssue[] = [];
    const now = this.clock.now();
    const checked: CheckedTask[] = [];
    const fields = (await this.fields.fieldsOfRobot(scope, robotId)).map((f) => ({
      name: f.name,
      type: f.type as RobotFieldType,
      required: f.required,
    }));
    for (const [index, input] of inputs.entries()) {
      const at = `${field}.${index}`;
      for (const issue of validateTaskData(fields, input.data)) {
        issues.push({ ...issue, field: `${at}.${issue.field}` });
      }
      const expiration = expirationInstant(input.expiration_date);
      if (expiration <= now) issues.push({ ...pastExpiration(), field: `${at}.expiration_date` });
      checked.push({
        rota_robots_id: robotId,
        label: input.label ?? null,
        data: input.data,
        priority: input.priority,
        expiration_date: expiration,
        deadline: input.deadline
          ? new Date(input.deadline)
          : robot.task_sla_minutes !== null
            ? new Date(now.getTime() + robot.task_sla_minutes * 60_000)
            : null,
        postpone_until: null,
      });
    }
    if (issues.length > 0) throw new AppError('invalid_input', issues);
    return checked;
  }

  /**
   * Writes what `checkMany` answered, in `tx`; call `announceCreated` once it committed. With
   * `reservedFor`, the tasks belong to that attended run while it is queued or processing (no
   * announcement: no other run may take them).
   */
  async insertChecked(
    tx: Db,
    scope: TenantScope,
    tasks: readonly CheckedTask[],
    reservedFor?: number,
  ) {
    const ids: number[] = [];
    for (const task of tasks) {
      ids.push(await insertTask(tx, scope, { ...task, reserved_for: reservedFor ?? null }));
    }
    return ids;
  }

  /** Tasks committed outside `create`: the queue trigger hears of them. */
  announceCreated(robotIds: number[]): void {
    if (robotIds.length > 0) this.onTasksCreated(robotIds);
  }

  /**
   * Label, data, priority and expiration only; status belongs to the robots and `retry`.
   * A past expiration is refused only when it changes, so a form that sends back an expired
   * task's date unchanged can still fix its label.
   */
  async update(
    scope: TenantScope,
    { id, ...input }: TaskUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const task = await findTask(this.db, scope, id, this.clock.now());
    if (!task) throw notFound();
    const issues: FieldIssue[] = input.data
      ? await this.dataIssues(scope, task.rota_robots_id, input.data)
      : [];
    const instant = (value: string | null | undefined) =>
      value === undefined ? undefined : value === null ? null : new Date(value);
    const values: TaskValues = {
      label: input.label,
      data: input.data,
      priority: input.priority,
      deadline: instant(input.deadline),
      postpone_until: instant(input.postpone_until),
    };
    if (input.expiration_date !== undefined) {
      const expiration = expirationInstant(input.expiration_date);
      const changed = expiration.getTime() !== task.expiration_date.getTime();
      if (changed && expiration <= new Date()) issues.push(pastExpiration());
      values.expiration_date = expiration;
    }
    if (issues.length > 0) throw new AppError('invalid_input', issues);
    await this.audit.recorded(
      author,
      auditOf.changed('task', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await updateTask(tx, scope, id, values))) throw notFound();
      },
    );
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('task', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if ((await deleteTasks(tx, scope, [id])) === 0) throw notFound();
      },
    );
  }

  /** Ids of other clients (or unknown) are skipped, not reported: `count` says how many moved. */
  retry(scope: TenantScope, { ids }: IdsBody, author: AuditAuthor): Promise<number> {
    return this.audit.recorded(
      author,
      { action: 'update', entity: 'task', after: async (_tx, count) => ({ retried: ids, count }) },
      (tx) => requeueTasks(tx, scope, ids),
    );
  }

  removeMany(scope: TenantScope, { ids }: IdsBody, author: AuditAuthor): Promise<number> {
    return this.db.transaction(async (tx) => {
      const count = await deleteTasks(tx, scope, ids);
      await this.audit.write(tx, author, {
        action: 'delete',
        entity: 'task',
        before: { ids, count },
      });
      return count;
    });
  }

  /** Pending tasks past their expiration become `expired` (the engine's duty, every second). */
  expireDue(limit: number): Promise<number> {
    return expireDueTasks(this.db, limit, this.clock.now());
  }

  /**
   * Open tasks that became at risk or breached since the last pass (any instance's), each
   * answered once: the engine announces them as live `task` events (every second).
   */
  slaTransitions(limit: number) {
    return markSlaTransitions(this.db, this.clock.now(), limit);
  }

  /** Per robot of the scope: unfinished tasks at risk and past their deadline now. */
  slaCounts(scope: TenantScope) {
    return slaCountsPerRobot(this.db, scope, this.clock.now());
  }

  /** Robot API `task/next`: the run's robot's next pending task, now held by the run. */
  async nextForRun(
    scope: TenantScope,
    run: { rota_robots_id: number; rota_executions_id: number; attended: boolean },
  ): Promise<RobotTask | null> {
    const task = await takeNextTask(this.db, scope, run, this.clock.now());
    return task
      ? {
          ...task,
          expiration_date: task.expiration_date.toISOString(),
          deadline: isoOrNull(task.deadline),
        }
      : null;
  }

  /** Robot API `task/finish`: only a task the run holds. */
  async finishForRun(scope: TenantScope, executionId: number, input: RobotTaskFinish) {
    const words =
      input.status === 'business_error'
        ? input.business_error
        : input.status === 'application_error'
          ? (input.message ?? input.business_error)
          : null;
    const finished = await finishHeldTask(
      this.db,
      scope,
      executionId,
      { id: input.id, status: input.status, business_error: words ?? null },
      this.clock.now(),
    );
    if (!finished) throw new AppError('conflict', [{ field: 'id', message: 'task_not_held' }]);
  }
}
