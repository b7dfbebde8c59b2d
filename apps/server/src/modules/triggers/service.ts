import {
  IDEMPOTENCY_KEY_MAX,
  type ListResponse,
  type Trigger,
  type TriggerCreate,
  type TriggerFire,
  type TriggerFireAnswer,
  type TriggerListQuery,
  type TriggerUpdate,
  type TriggerWithToken,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { systemScope, type TenantScope } from '../../lib/tenant-scope.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { RunService } from '../executions/run-service.js';
import type { RobotService } from '../robots/service.js';
import type { TaskService } from '../tasks/service.js';
import {
  claimFireKey,
  deleteTrigger,
  findLiveTriggerByHash,
  findTrigger,
  insertTrigger,
  listTriggers,
  markFired,
  pruneFireKeys,
  saveFireAnswer,
  storedFire,
  updateTrigger,
  type TriggerRow,
} from './repository.js';

/** Every trigger token starts so, to tell it from a session token or an API key at a glance. */
export const TRIGGER_TOKEN_PREFIX = 'rota_trg_';

/** Fires per trigger per window (RateLimiter's window, set where the limiter is built). */
export const TRIGGER_FIRES_PER_WINDOW = 60;
export const TRIGGER_FIRE_WINDOW_SECONDS = 60;

/** Tasks a fire leaves without an expiration expire this long after it. */
const DEFAULT_EXPIRATION_MS = 30 * 24 * 60 * 60 * 1000;

/** 1–200 visible ASCII characters (no spaces, no control characters). */
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

export const toTrigger = (row: TriggerRow): Trigger => ({
  rota_triggers_id: row.rota_triggers_id,
  rota_robots_id: row.rota_robots_id,
  robot_name: row.robot_name,
  name: row.name,
  token_hint: row.token_hint,
  revoked_at: isoOrNull(row.revoked_at),
  last_fired_at: isoOrNull(row.last_fired_at),
  created_at: iso(row.created_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_trigger_name' }]);

export const invalidTriggerToken = () => new AppError('invalid_trigger_token');

/** A new token and what is kept of it: its SHA-256 and last four characters. */
function newToken() {
  const token = `${TRIGGER_TOKEN_PREFIX}${generateToken(32)}`;
  return { token, token_hash: hashToken(token), token_hint: token.slice(-4) };
}

/** The trigger a fire's token named, resolved before its body is read. */
export interface FiringTrigger {
  rota_triggers_id: number;
  rota_clients_id: number;
  rota_robots_id: number;
  name: string;
}

/**
 * A robot's run triggers: another system fires one with its token, handing tasks
 * and queueing one run of the robot. Tokens are answered once (create, rotate); only their
 * SHA-256 is stored.
 */
export class TriggerService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
    private readonly tasks: TaskService,
    private readonly runs: RunService,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  list(scope: TenantScope, query: TriggerListQuery): Promise<ListResponse<Trigger>> {
    return listTriggers(this.db, scope, query, toTrigger);
  }

  show(scope: TenantScope, id: number): Promise<Trigger> {
    return this.showIn(this.db, scope, id);
  }

  /** The robot must be the client's and visible to the caller's teams (a field error if not). */
  async create(
    scope: TenantScope,
    input: TriggerCreate,
    author: AuditAuthor,
  ): Promise<TriggerWithToken> {
    if (
      !scope.seesRobot(input.rota_robots_id) ||
      !(await this.robots.exists(scope, input.rota_robots_id))
    ) {
      throw invalidField('rota_robots_id', 'robot_not_found');
    }
    const { token, ...stored } = newToken();
    const trigger = await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.created('trigger', (t: Trigger) => t.rota_triggers_id),
        async (tx) =>
          this.showIn(
            tx,
            scope,
            await insertTrigger(tx, scope, {
              rota_robots_id: input.rota_robots_id,
              name: input.name,
              ...stored,
              created_by: author.user?.users_id ?? null,
            }),
          ),
      ),
    );
    return { ...trigger, token };
  }

  async update(scope: TenantScope, { id, ...changes }: TriggerUpdate, author: AuditAuthor) {
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('trigger', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateTrigger(tx, scope, id, changes))) throw notFound();
        },
      ),
    );
  }

  /** A new token; the old one stops working at once. A revoked trigger comes back to life. */
  async rotate(scope: TenantScope, id: number, author: AuditAuthor): Promise<TriggerWithToken> {
    const { token, ...stored } = newToken();
    const trigger = await this.audit.recorded(
      author,
      auditOf.changed('trigger', id, (tx) => this.showIn(tx, scope, id), 'rotate_token'),
      async (tx) => {
        if (!(await updateTrigger(tx, scope, id, { ...stored, revoked: false }))) throw notFound();
        return this.showIn(tx, scope, id);
      },
    );
    return { ...(trigger as Trigger), token };
  }

  async revoke(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.changed('trigger', id, (tx) => this.showIn(tx, scope, id), 'revoke'),
      async (tx) => {
        if (!(await updateTrigger(tx, scope, id, { revoked: true }))) throw notFound();
      },
    );
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('trigger', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteTrigger(tx, scope, id))) throw notFound();
      },
    );
  }

  /** The live trigger a bearer token names; anything else is 401 `invalid_trigger_token`. */
  async authenticate(token: string | undefined): Promise<FiringTrigger> {
    if (!token?.startsWith(TRIGGER_TOKEN_PREFIX)) throw invalidTriggerToken();
    const trigger = await findLiveTriggerByHash(this.db, hashToken(token));
    if (!trigger) throw invalidTriggerToken();
    return trigger;
  }

  /** The `Idempotency-Key` header, checked: undefined when the caller sent none. */
  idempotencyKey(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
      throw new AppError('invalid_idempotency_key', [
        { field: 'Idempotency-Key', message: 'invalid_idempotency_key' },
      ]);
    }
    return header;
  }

  /**
   * The fire's tasks and one run of the robot, in one transaction with its audit record (author:
   * `trigger:<name>`). With an Idempotency-Key, the same key within 24 hours answers the first
   * fire's answer again and creates nothing.
   */
  async fire(
    trigger: FiringTrigger,
    input: TriggerFire,
    key: string | undefined,
    author: AuditAuthor,
  ): Promise<TriggerFireAnswer> {
    // Every authenticated fire counts, replays too: the limit is on what a caller sends.
    const limitKey = `trigger-fire:${trigger.rota_triggers_id}`;
    if ((await this.limiter.hit(limitKey)) > TRIGGER_FIRES_PER_WINDOW) {
      throw new AppError('too_many_requests', undefined, TRIGGER_FIRE_WINDOW_SECONDS);
    }
    if (key !== undefined) {
      const stored = await storedFire(this.db, trigger.rota_triggers_id, key);
      if (stored) return stored as TriggerFireAnswer;
    }
    const scope = systemScope(trigger.rota_clients_id);
    // Checked before the transaction opens: on the embedded database a query outside an open
    // transaction would wait for it.
    const expires = new Date(this.clock.now().getTime() + DEFAULT_EXPIRATION_MS).toISOString();
    const tasks = await this.tasks.checkMany(
      scope,
      trigger.rota_robots_id,
      input.tasks.map((t) => ({ ...t, expiration_date: t.expiration_date ?? expires })),
      'tasks',
    );
    const run = await this.runs.triggerRun(scope, trigger.rota_robots_id, input);
    const fired = await this.db.transaction(async (tx) => {
      if (key !== undefined) {
        await pruneFireKeys(tx);
        if (!(await claimFireKey(tx, trigger.rota_triggers_id, key))) return undefined;
      }
      const taskIds = await this.tasks.insertChecked(tx, scope, tasks);
      const executionId = await this.runs.queueIn(tx, run);
      await markFired(tx, trigger.rota_triggers_id);
      const answer: TriggerFireAnswer = { data: { execution_id: executionId, task_ids: taskIds } };
      await this.audit.write(tx, author, {
        action: 'run',
        entity: 'trigger',
        entity_id: trigger.rota_triggers_id,
        after: {
          rota_robots_id: trigger.rota_robots_id,
          name: trigger.name,
          execution_id: executionId,
          task_ids: taskIds,
          priority: run.priority,
          rota_vms_id: input.rota_vms_id ?? null,
        },
        clientId: trigger.rota_clients_id,
      });
      if (key !== undefined) await saveFireAnswer(tx, trigger.rota_triggers_id, key, answer);
      return { answer, executionId };
    });
    if (!fired) {
      // Another fire with this key committed meanwhile: its answer.
      const stored = await storedFire(this.db, trigger.rota_triggers_id, key!);
      if (!stored) throw new AppError('conflict');
      return stored as TriggerFireAnswer;
    }
    this.runs.announce(run, fired.executionId);
    if (tasks.length > 0) this.tasks.announceCreated([trigger.rota_robots_id]);
    return fired.answer;
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Trigger> {
    const row = await findTrigger(db, scope, id);
    if (!row) throw notFound();
    return toTrigger(row);
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }
}
